package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.contract.WakeLatency;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiters keep being woken by release messages when the node they listened on dies, and when the holder
 * did not hold the lock on that node.
 */
class RedlockWakeupTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    @Test
    void wakeUpMovesToAnotherNodeWhenItsNodeDies() throws Exception {
        String[] uris = REDIS.uris().toArray(String[]::new);
        try (LockManager a =
                        LockManager.builder().redlock(uris).application("a").build();
                LockManager b =
                        LockManager.builder().redlock(uris).application("b").build()) {
            LockOptions opts = LockOptions.ttl(Duration.ofSeconds(10));
            LockOptions waiting = opts.waitUpTo(Duration.ofSeconds(20)).retryInterval(Duration.ofSeconds(5));
            assertTrue(wakeLatencyMs(a, b, opts, waiting, 300) < 300, "baseline wake-up");
            REDIS.node(0).kill(); // the node b's wake-up connection listens on
            long ms = wakeLatencyMs(a, b, opts, waiting, 2_000);
            assertTrue(
                    ms < 500,
                    "waiter woke " + ms
                            + " ms after release with node 0 dead: the fallback retry (>= 937 ms), not pub/sub");
        }
    }

    /**
     * A holder may hold only a majority: here node 0 still has the previous holder's key when {@code a} acquires
     * (as when the previous holder's release has reached a majority and returned while its call to node 0 is still
     * in flight). The waiter listens on node 0, where {@code a}'s release finds nothing of its own; that node must
     * announce the release all the same, or the waiter sleeps out its fallback interval (>= 11.25 s here).
     */
    @Test
    void aNodeTheHolderDidNotHoldStillAnnouncesTheRelease() throws Exception {
        assertWokenSoonAfter("a release", "wake:minority", (a, held) -> held.release());
    }

    /** The same state, and an operator's force-release instead of the holder's release. */
    @Test
    void aForceReleaseIsAnnouncedOnANodeTheHolderDidNotHold() throws Exception {
        assertWokenSoonAfter(
                "a force-release",
                "wake:minority-forced",
                (a, held) -> assertTrue(a.inspector()
                        .forceRelease("wake:minority-forced", "ops")
                        .released()));
    }

    /** The same state, and the holder's manager closing (its locks released in one batch per node). */
    @Test
    void closingTheManagerAnnouncesOnANodeItDidNotHold() throws Exception {
        assertWokenSoonAfter("the holder's manager closing", "wake:minority-closed", (a, held) -> a.close());
    }

    /** How the holder's side ends its hold in {@link #assertWokenSoonAfter}. */
    private interface Ending {
        void end(LockManager holderSide, LockHandle held) throws Exception;
    }

    private static void assertWokenSoonAfter(String what, String name, Ending ending) throws Exception {
        String[] uris = REDIS.uris().toArray(String[]::new);
        try (LockManager a =
                        LockManager.builder().redlock(uris).application("a").build();
                LockManager b =
                        LockManager.builder().redlock(uris).application("b").build()) {
            LockOptions warm = LockOptions.ttl(Duration.ofSeconds(10));
            assertTrue(
                    WakeLatency.afterRelease(
                                    a,
                                    b,
                                    name + ":warm",
                                    warm,
                                    warm.waitUpTo(Duration.ofSeconds(20)),
                                    300,
                                    Duration.ofSeconds(20))
                            < 2_000,
                    "baseline wake-up"); // b's wake-up connection is up, on node 0
            // the previous holder's key on node 0 only, gone before the hold ends
            REDIS.node(0).command("SET", "lock:{" + name + "}", "previous-holders-token", "PX", "300");
            LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
            LockHandle held = a.acquire(name, holding);
            CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
                try (LockHandle got = b.acquire(
                        name, holding.waitUpTo(Duration.ofSeconds(40)).retryInterval(Duration.ofSeconds(60)))) {
                    return System.nanoTime();
                }
            });
            Thread.sleep(800);
            assertFalse(acquiredAt.isDone(), "the waiter got a held lock");
            long endedAt = System.nanoTime();
            ending.end(a, held);
            long ms = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - endedAt);
            assertTrue(
                    ms < 5_000,
                    "waiter got the lock " + ms + " ms after " + what + " that node 0 (the one it listens on)"
                            + " did not announce (bound 5,000 ms; the fallback sleep is >= 11,250 ms)");
        }
    }

    private static long wakeLatencyMs(LockManager a, LockManager b, LockOptions opts, LockOptions waiting, long holdMs)
            throws Exception {
        LockHandle h = a.acquire("wake:redlock", opts);
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            LockHandle got = b.acquire("wake:redlock", waiting);
            long t = System.nanoTime();
            got.release();
            return t;
        });
        Thread.sleep(holdMs);
        assertFalse(acquiredAt.isDone());
        long releasedAt = System.nanoTime();
        h.release();
        return TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
    }
}
