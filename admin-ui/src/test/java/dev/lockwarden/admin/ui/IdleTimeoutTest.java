package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdleTimeoutTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    @Test
    void activityWithinTheTimeoutCounts() {
        assertEquals(T0.plusSeconds(1799), IdleTimeout.afterActivity(T0, T0.plusSeconds(1799), TIMEOUT));
    }

    @Test
    void aClickAfterTheTimeoutDoesNotReviveTheSession() {
        assertNull(IdleTimeout.afterActivity(T0, T0.plusSeconds(1801), TIMEOUT), "expired before the click: log out");
        assertNull(IdleTimeout.afterActivity(null, T0, TIMEOUT), "no recorded activity: not logged in");
    }
}
