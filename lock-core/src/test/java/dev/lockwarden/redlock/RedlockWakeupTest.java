package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.contract.WakeLatency;
import dev.lockwarden.testing.RedisServerExtension;

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
        try (LockManager a = LockManager.builder().redlock(uris).application("a").build();
             LockManager b = LockManager.builder().redlock(uris).application("b").build()) {
            LockOptions opts = LockOptions.ttl(Duration.ofSeconds(10));
            LockOptions waiting = opts.waitUpTo(Duration.ofSeconds(20)).retryInterval(Duration.ofSeconds(5));
            assertTrue(wakeLatencyMs(a, b, opts, waiting, 300) < 300, "baseline wake-up");
            REDIS.node(0).kill(); // the node b's wake-up connection listens on
            long ms = wakeLatencyMs(a, b, opts, waiting, 2_000);
            assertTrue(ms < 500, "waiter woke " + ms + " ms after release with node 0 dead: the fallback retry (>= 937 ms), not pub/sub");
        }
    }

    /**
     * A holder may hold only a majority: here node 0 still has the previous holder's key when {@code a} acquires
     * (in CI: the previous holder's release had reached a majority and returned, its call to node 0 was still in
     * flight). The waiter listens on node 0, where {@code a}'s release finds nothing of its own; that node must
     * announce the release all the same, or the waiter sleeps out its fallback interval (>= 11.25 s here).
     */
    @Test
    void aNodeTheHolderDidNotHoldStillAnnouncesTheRelease() throws Exception {
        String[] uris = REDIS.uris().toArray(String[]::new);
        String name = "wake:minority";
        try (LockManager a = LockManager.builder().redlock(uris).application("a").build();
             LockManager b = LockManager.builder().redlock(uris).application("b").build()) {
            LockOptions warm = LockOptions.ttl(Duration.ofSeconds(10));
            assertTrue(WakeLatency.afterRelease(a, b, name + ":warm", warm, warm.waitUpTo(Duration.ofSeconds(20)), 300,
                    Duration.ofSeconds(20)) < 2_000, "baseline wake-up"); // b's wake-up connection is up, on node 0
            // the previous holder's key on node 0 only, gone before a's release
            REDIS.node(0).command("SET", "lock:{" + name + "}", "previous-holders-token", "PX", "300");
            LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
            LockOptions waiting = holding.waitUpTo(Duration.ofSeconds(40)).retryInterval(Duration.ofSeconds(60));
            long ms = WakeLatency.afterRelease(a, b, name, holding, waiting, 800, Duration.ofSeconds(40));
            assertTrue(ms < 5_000, "waiter got the lock " + ms + " ms after a release that node 0 (the one it listens on)"
                    + " did not announce (bound 5,000 ms; the fallback sleep is >= 11,250 ms)");
        }
    }

    /** The same state, and an operator's force-release instead of the holder's release. */
    @Test
    void aForceReleaseIsAnnouncedOnANodeTheHolderDidNotHold() throws Exception {
        String[] uris = REDIS.uris().toArray(String[]::new);
        String name = "wake:minority-forced";
        try (LockManager a = LockManager.builder().redlock(uris).application("a").build();
             LockManager b = LockManager.builder().redlock(uris).application("b").build()) {
            LockOptions warm = LockOptions.ttl(Duration.ofSeconds(10));
            assertTrue(WakeLatency.afterRelease(a, b, name + ":warm", warm, warm.waitUpTo(Duration.ofSeconds(20)), 300,
                    Duration.ofSeconds(20)) < 2_000, "baseline wake-up");
            REDIS.node(0).command("SET", "lock:{" + name + "}", "previous-holders-token", "PX", "300");
            LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
            a.acquire(name, holding); // the stuck job: never released by its holder
            CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
                try (LockHandle got = b.acquire(name, holding.waitUpTo(Duration.ofSeconds(40)).retryInterval(Duration.ofSeconds(60)))) {
                    return System.nanoTime();
                }
            });
            Thread.sleep(800);
            assertFalse(acquiredAt.isDone(), "the waiter got a held lock");
            long forcedAt = System.nanoTime();
            assertTrue(a.inspector().forceRelease(name, "ops").released());
            long ms = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - forcedAt);
            assertTrue(ms < 5_000, "waiter got the lock " + ms + " ms after a force-release that node 0 (the one it listens on)"
                    + " did not announce (bound 5,000 ms; the fallback sleep is >= 11,250 ms)");
        }
    }

    private static long wakeLatencyMs(LockManager a, LockManager b, LockOptions opts, LockOptions waiting, long holdMs) throws Exception {
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
