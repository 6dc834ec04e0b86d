package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

@Timeout(120)
class RedisSentinelGroupTest {

    /** A promotion takes about 2-5 s with down-after-milliseconds 1000; this bound leaves room for a busy host. */
    private static final Duration PROMOTION = Duration.ofSeconds(20);

    private RedisSentinelGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    void theSentinelsNameTheFirstMasterAndReplicateToBothReplicas() {
        group = new RedisSentinelGroup(false).start();
        RedisNode master = group.master();
        assertEquals(group.dataNodes().get(0), master);
        assertEquals(3, group.sentinels().size());
        assertTrue(group.sentinelUris().get(0).startsWith("redis://127.0.0.1:"));
        master.command("SET", "k", "v");
        for (RedisNode replica : group.dataNodes().subList(1, 3)) {
            Replication.awaitCaughtUp(master, replica, Duration.ofSeconds(10));
            assertEquals("v", replica.command("GET", "k"));
        }
    }

    @Test
    void aKilledMasterIsReplacedAndRejoinsAsAReplicaTwice() {
        group = new RedisSentinelGroup(false).start();
        for (int round = 1; round <= 2; round++) {
            RedisNode old = group.master();
            old.command("SET", "round", Integer.toString(round));
            Replication.awaitCaughtUp(
                    old,
                    group.dataNodes().stream().filter(n -> n != old).findFirst().get(),
                    Duration.ofSeconds(10));
            long start = System.nanoTime();
            group.killMaster();
            RedisNode promoted = group.awaitPromotion(old, PROMOTION);
            System.out.printf("sentinel promotion %d: %d ms%n", round, (System.nanoTime() - start) / 1_000_000);
            assertNotEquals(old, promoted);
            assertEquals(Integer.toString(round), promoted.command("GET", "round"));
            group.rejoin(old);
            assertEquals("slave", Replication.role(old));
        }
    }

    @Test
    void theEmbeddedBinaryRunsAGroupThatFailsOver() {
        group = new RedisSentinelGroup(RedisBinary.embedded(), false).start();
        RedisNode old = group.master();
        assertTrue(old.command("INFO", "server").contains("redis_version:6.2"));
        group.killMaster();
        assertNotEquals(old, group.awaitPromotion(old, PROMOTION));
    }

    @Test
    void aWriteHeldBackByTheRelaysIsGoneAfterThePromotion() {
        group = new RedisSentinelGroup(true).start();
        RedisNode old = group.master();
        old.command("SET", "kept", "1");
        for (RedisNode replica : group.dataNodes().subList(1, 3)) {
            Replication.awaitCaughtUp(old, replica, Duration.ofSeconds(10));
        }
        group.holdReplication();
        try (Jedis writer = new Jedis(RedisNode.HOST, old.port())) {
            writer.set("lost", "1");
            assertEquals(0, writer.waitReplicas(1, 200));
        }
        long start = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, PROMOTION);
        System.out.printf("sentinel promotion with held relays: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertEquals("1", promoted.command("GET", "kept"));
        assertNull(promoted.command("GET", "lost"));
    }
}
