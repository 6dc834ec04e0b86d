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
import dev.lockwarden.testing.RedisServerExtension;

/** Waiters keep being woken by release messages when the node they listened on dies. */
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
