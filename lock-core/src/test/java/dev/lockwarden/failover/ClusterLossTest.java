package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.Replication;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Cluster master dies before its replica has a lock (the replica's replication link was cut, and
 * kept from reconnecting by a wrong {@code masterauth}, while the lock was written); the replica is
 * promoted without it. The holder, with a 30 s TTL whose next
 * scheduled refresh is 10 s away, is told {@code LOST} within a second of the promotion: the manager
 * re-checks its locks on the new slot owner as soon as the cluster's topology changed. The control: a
 * second client gets the same lock from the new master (the double grant is real).
 */
@Timeout(120)
class ClusterLossTest extends ClusterWithReplicas {
    private static final String NAME = "invoice:lost";
    private static final String KEY = "lock:{" + NAME + "}";

    @Override
    protected String application() {
        return "cluster-holder";
    }

    private static void awaitLinkDown(RedisNode replica) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"down".equals(Replication.info(replica).get("master_link_status"))) {
            assertTrue(System.nanoTime() < deadline, replica + " still replicates");
            Thread.sleep(20);
        }
    }

    @Test
    void aLockThePromotedReplicaLacksIsReportedLostWithinASecondOfThePromotion() throws Exception {
        RedisNode master = failover.masterOfKey(KEY);
        List<RedisNode> replicas = failover.replicasOf(master);
        RedisNode replica = replicas.get(0);
        replica.command("CONFIG", "SET", "masterauth", "not-the-password");
        replica.command("CLIENT", "KILL", "TYPE", "master");
        awaitLinkDown(replica);
        long acquired = System.nanoTime();
        LockHandle held = locks.acquire(NAME, LockOptions.ttl(Duration.ofSeconds(30)));
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        AtomicLong lostAt = new AtomicLong();
        held.onLost(e -> {
            lostAt.set(System.nanoTime());
            lost.set(e);
        });

        long killed = System.nanoTime();
        master.kill();
        replica.command("CONFIG", "SET", "masterauth", "");
        RedisNode promoted = failover.awaitPromotion(replicas, Duration.ofSeconds(30));
        long promotion = System.nanoTime();
        assertFalse("1".equals(promoted.command("EXISTS", KEY)), "the control: the promoted replica missed the lock");

        long deadline = promotion + Duration.ofSeconds(3).toNanos();
        while (lost.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertNotNull(lost.get(), "the holder was not told within 3 s of the promotion");
        long afterPromotion = (lostAt.get() - promotion) / 1_000_000;
        System.out.printf(
                "cluster: promotion %d ms after SIGKILL; holder told LOST %d ms after SIGKILL, %d ms after the"
                        + " promotion was seen by the test (%s)%n",
                (promotion - killed) / 1_000_000,
                (lostAt.get() - killed) / 1_000_000,
                afterPromotion,
                lost.get().reason());
        assertTrue(afterPromotion <= 1_000, "told " + afterPromotion + " ms after the promotion");
        assertTrue(
                lostAt.get() - acquired < Duration.ofSeconds(10).toNanos(),
                "told only at the watchdog's scheduled refresh, not after the failover");
        assertFalse(held.isHeld());

        try (LockManager other = LockManager.builder()
                        .cluster(cluster.seedUris().toArray(String[]::new))
                        .application("cluster-second")
                        .timeout(Duration.ofMillis(500))
                        .shutdownHook(false)
                        .build();
                LockHandle second = other.acquire(NAME, LockOptions.ttl(Duration.ofSeconds(30)))) {
            assertTrue(second.isHeld(), "the control: the second grant after the promotion");
        }
    }
}
