package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LockHandle#extend(Duration, Duration)}: the extension restarts the minimum hold. */
class ExtendWithHoldAtLeastTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions TEN_SECONDS =
            LockOptions.ttl(Duration.ofSeconds(10)).autoRefresh(false);

    private LockManager locks;

    @BeforeEach
    void start() {
        REDIS.flushAll();
        locks = LockManager.builder().redis(REDIS.uri()).shutdownHook(false).build();
    }

    @AfterEach
    void stop() {
        locks.close();
    }

    @Test
    void aReleaseSoonAfterTheExtensionKeepsTheLockForTheNewHold() {
        LockHandle h = locks.acquire("job", TEN_SECONDS);
        assertTrue(h.extend(Duration.ofSeconds(10), Duration.ofSeconds(2)));
        h.release();
        LockInfo kept = locks.inspector().get("job").orElseThrow();
        assertTrue(
                kept.remainingTtl().compareTo(Duration.ofMillis(1500)) > 0
                        && kept.remainingTtl().compareTo(Duration.ofSeconds(2)) <= 0,
                "kept " + kept.remainingTtl());
    }

    @Test
    void aZeroHoldReplacesTheHoldFromAcquisition() {
        LockHandle h = locks.acquire("job", TEN_SECONDS.holdAtLeast(Duration.ofSeconds(5)));
        assertTrue(h.extend(Duration.ofSeconds(10), Duration.ZERO));
        h.release();
        assertTrue(locks.inspector().get("job").isEmpty());
    }

    @Test
    void aNestedHandleExtendsTheOuterOne() {
        try (LockHandle outer = locks.acquire("job", TEN_SECONDS);
                LockHandle nested = locks.acquire("job", TEN_SECONDS)) {
            assertTrue(nested.extend(Duration.ofSeconds(20), Duration.ofSeconds(3)));
            assertTrue(outer.remainingTtl().compareTo(Duration.ofSeconds(15)) > 0);
        }
        assertTrue(locks.inspector().get("job").orElseThrow().remainingTtl().compareTo(Duration.ofSeconds(3)) <= 0);
    }

    @Test
    void aHoldLongerThanTheTtlIsRefusedAndLeavesTheHandleAsItWas() {
        LockHandle h = locks.acquire("job", TEN_SECONDS);
        assertThrows(IllegalArgumentException.class, () -> h.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)));
        assertThrows(IllegalArgumentException.class, () -> h.extend(Duration.ofSeconds(1), Duration.ofSeconds(-1)));
        assertTrue(h.isHeld());
        h.release();
        assertFalse(h.extend(Duration.ofSeconds(10), Duration.ZERO), "a released handle is not extended");
        assertTrue(locks.inspector().get("job").isEmpty());
    }
}
