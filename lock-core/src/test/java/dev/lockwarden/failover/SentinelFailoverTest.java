package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a Sentinel failover does to a lock written on a master that died before its replicas had
 * it: clients pointed at the master, no replica acknowledgement, the replication stream held back
 * by the harness's relays so the promoted replica misses the write.
 */
@Timeout(120)
class SentinelFailoverTest {

    static final Duration PROMOTION = Duration.ofSeconds(20);
    private static final String NAME = "payment:42";
    /** Longer than a promotion (about 2 s) plus a refresh interval, so the first holder still believes. */
    private static final Duration TTL = Duration.ofSeconds(10);

    private static final LockOptions OPTS = LockOptions.ttl(TTL);

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
    void withoutReplicaAcknowledgementASecondClientGetsTheLockTheFirstStillHolds() throws InterruptedException {
        RedisNode old = group.master();
        LockManager first = clients.on("holder-a", old);
        group.holdReplication();
        LockHandle held = first.acquire(NAME, OPTS);
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        held.onLost(lost::set);
        assertEquals("1", old.command("EXISTS", "lock:{" + NAME + "}"), "the lock is on the master");

        long killed = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, PROMOTION);
        System.out.printf("promotion %d ms after SIGKILL%n", (System.nanoTime() - killed) / 1_000_000);
        assertNull(promoted.command("GET", "lock:{" + NAME + "}"), "the promoted replica missed the lock");

        Optional<LockHandle> second = clients.on("holder-b", promoted).tryAcquire(NAME, OPTS);
        assertTrue(second.isPresent(), "the second client was refused: the double grant did not happen");
        // the double grant: both handles say they hold the lock, nothing told the first one
        assertTrue(held.isHeld(), "the first holder no longer believes it holds the lock");
        held.checkHeld();
        assertTrue(second.get().isHeld());
        assertNull(lost.get(), "the first holder was told of the loss");
        assertTrue(
                second.get().fencingToken() > held.fencingToken(),
                second.get().fencingToken() + " is not above " + held.fencingToken());

        // the first holder is told only when its TTL passes without a confirmed refresh
        long granted = System.nanoTime();
        long deadline = granted + TTL.plusSeconds(2).toNanos();
        while (lost.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertNotNull(lost.get(), "the first holder was never told of the loss");
        assertFalse(held.isHeld());
        System.out.printf(
                "both held the lock for %d ms, until the first holder's TTL passed%n",
                (System.nanoTime() - granted) / 1_000_000);
    }
}
