package dev.lockwarden.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void parsesShortAndIsoForms() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms", "x"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s", "x"));
        assertEquals(Duration.ofMinutes(2), Durations.parse(" 2m ", "x"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h", "x"));
        assertEquals(Duration.ofDays(7), Durations.parse("7d", "x"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("PT30S", "x"));
    }

    @Test
    void rejectsGarbageNamingWhere() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Durations.parse("10 parsecs", "@Locked(ttl) on Billing#charge"));
        assertTrue(
                e.getMessage().contains("@Locked(ttl) on Billing#charge")
                        && e.getMessage().contains("10 parsecs"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("", "x"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("99999999999999999999s", "x"));
    }
}
