package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.store.Drift;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The clock-drift allowance is taken off a Redlock lock's validity once: right after acquiring a
 * 60 s lock its known validity is 60 s − drift (602 ms) − the attempt's elapsed time, not 60 s − 2 × drift.
 */
class RedlockDriftTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    private static final long TTL = 60_000;

    @Test
    void driftIsSubtractedOnce() {
        try (LockManager locks = LockManager.builder()
                        .redlock(REDIS.uris().toArray(String[]::new))
                        .build();
                LockHandle lock = locks.acquire("drift:once", LockOptions.ttl(Duration.ofMillis(TTL)))) {
            long remaining = lock.remainingTtl().toMillis();
            long drift = Drift.millis(TTL);
            assertTrue(remaining <= TTL - drift, "validity must not exceed ttl − drift: " + remaining);
            // twice the drift would leave at most TTL − 1204; the attempt itself takes a few ms
            assertTrue(
                    remaining > TTL - drift - drift / 2, "drift taken off more than once: " + remaining + " ms left");
        }
    }
}
