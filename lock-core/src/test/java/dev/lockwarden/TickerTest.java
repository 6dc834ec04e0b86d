package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Handles and the watchdog read time from the manager's ticker, so a test moves time on instead of
 * sleeping through a TTL (the sleeping version: AbstractLockBehaviourTest#lockExpiresAfterTtlWithoutRefresh).
 */
class TickerTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    /** System.nanoTime() plus what the test added: never behind the real clock. */
    private final AtomicLong ahead = new AtomicLong();

    @Test
    void aMinuteLockExpiresWhenTheTickerPassesItsTtlWithoutSleeping() throws Exception {
        try (LockManager locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("ticker")
                .ticker(() -> System.nanoTime() + ahead.get())
                .build()) {
            LockHandle h = locks.acquire(
                    "ticker:a", LockOptions.ttl(Duration.ofMinutes(1)).autoRefresh(false));
            CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
            h.onLost(lost::complete);
            assertTrue(h.isHeld());
            assertTrue(h.remainingTtl().toSeconds() >= 58, h.remainingTtl().toString());

            ahead.addAndGet(TimeUnit.SECONDS.toNanos(30));
            assertTrue(h.isHeld(), "half the TTL passed");
            assertTrue(h.remainingTtl().toSeconds() <= 30, h.remainingTtl().toString());

            ahead.addAndGet(TimeUnit.SECONDS.toNanos(31));
            assertFalse(h.isHeld(), "the TTL passed on the ticker");
            assertEquals(Duration.ZERO, h.remainingTtl());
            assertThrows(LockLostException.class, h::checkHeld);
            // the watchdog looks at least once a second and sees the same time
            LockLostEvent e = lost.get(5, TimeUnit.SECONDS);
            assertTrue(e.reason().contains("autoRefresh is off"), e.reason());
        }
    }
}
