package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * When a holder was told its lock is lost, measured against a failover: a loss test starts one right
 * after the acquisition (TTL 30 s, so the watchdog's scheduled refresh is 10 s away), kills the master,
 * waits for the promotion, then asks {@link #assertToldSoonAfter}.
 */
final class LossClock {
    private final AtomicReference<LockLostEvent> lost = new AtomicReference<>();
    private final AtomicLong lostAt = new AtomicLong();
    private final long acquired;

    LossClock(LockHandle held, long acquiredNanos) {
        this.acquired = acquiredNanos;
        held.onLost(e -> {
            lostAt.set(System.nanoTime());
            lost.set(e);
        });
    }

    /**
     * Waits up to 3 s after {@code promotion} for the loss, prints the timings, and asserts the holder
     * was told within 1 s of the promotion, well before its scheduled refresh.
     *
     * @return the loss event
     */
    LockLostEvent assertToldSoonAfter(String deployment, long killed, long promotion) throws InterruptedException {
        long deadline = promotion + Duration.ofSeconds(3).toNanos();
        while (lost.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertNotNull(lost.get(), "the holder was not told within 3 s of the promotion");
        long afterPromotion = (lostAt.get() - promotion) / 1_000_000;
        System.out.printf(
                "%s: promotion %d ms after SIGKILL; holder told LOST %d ms after SIGKILL, %d ms after the"
                        + " promotion was seen by the test (%s)%n",
                deployment,
                (promotion - killed) / 1_000_000,
                (lostAt.get() - killed) / 1_000_000,
                afterPromotion,
                lost.get().reason());
        assertTrue(afterPromotion <= 1_000, "told " + afterPromotion + " ms after the promotion");
        assertTrue(
                lostAt.get() - acquired < Duration.ofSeconds(10).toNanos(),
                "told only at the watchdog's scheduled refresh, not after the failover");
        return lost.get();
    }
}
