package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;

/**
 * What a Sentinel failover does to a lock written on a master that died before its replicas had
 * it: clients pointed at the master, no replica acknowledgement, the replication stream held back
 * by the harness's relays so the promoted replica misses the write.
 */
@Timeout(120)
class SentinelFailoverTest {

    static final Duration PROMOTION = Duration.ofSeconds(20);
    private static final String NAME = "payment:42";
    private static final LockOptions LONG_TTL = LockOptions.ttl(Duration.ofSeconds(30));

    private final Clients clients = new Clients();
    private RedisSentinelGroup group;

    @BeforeEach
    void start() {
        group = new RedisSentinelGroup(true).start();
    }

    @AfterEach
    void stop() {
        clients.close();
        group.close();
    }

    @Test
    void withoutReplicaAcknowledgementASecondClientGetsTheLockTheFirstStillHolds() {
        RedisNode old = group.master();
        LockManager first = clients.on("holder-a", old);
        group.holdReplication();
        LockHandle held = first.acquire(NAME, LONG_TTL);
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        held.onLost(lost::set);
        assertEquals("1", old.command("EXISTS", "lock:{" + NAME + "}"), "the lock is on the master");

        long killed = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, PROMOTION);
        System.out.printf("promotion %d ms after SIGKILL%n", (System.nanoTime() - killed) / 1_000_000);
        assertNull(promoted.command("GET", "lock:{" + NAME + "}"), "the promoted replica missed the lock");

        Optional<LockHandle> second = clients.on("holder-b", promoted).tryAcquire(NAME, LONG_TTL);
        assertTrue(second.isPresent(), "the second client was refused: the double grant did not happen");
        // the double grant: both handles say they hold the lock, nothing told the first one
        assertTrue(held.isHeld(), "the first holder no longer believes it holds the lock");
        held.checkHeld();
        assertTrue(second.get().isHeld());
        assertNull(lost.get(), "the first holder was told of the loss");
        assertTrue(second.get().fencingToken() > held.fencingToken(),
                second.get().fencingToken() + " is not above " + held.fencingToken());
    }
}
