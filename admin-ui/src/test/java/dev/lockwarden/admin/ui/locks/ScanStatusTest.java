package dev.lockwarden.admin.ui.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.admin.service.LockSearch.Snapshot;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ScanStatusTest {
    @Test
    void saysHowFarTheScanGotAndWhatIsLeft() {
        assertEquals(
                "3 locks shown so far · 40 % scanned — keep scanning…",
                ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                false,
                                false,
                                OptionalDouble.of(0.4),
                                Optional.of("0:1"),
                                Optional.empty()),
                        3));
        assertEquals(
                "1 lock shown so far · scan under way — keep scanning…",
                ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                false,
                                false,
                                OptionalDouble.empty(),
                                Optional.of("1:1"),
                                Optional.empty()),
                        1));
        assertTrue(ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                true,
                                false,
                                false,
                                OptionalDouble.of(1),
                                Optional.empty(),
                                Optional.empty()),
                        11)
                .startsWith("11 locks shown · 11 of 11 matches, whole key space scanned · updated "));
        assertTrue(ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                false,
                                true,
                                OptionalDouble.of(0.5),
                                Optional.of("0:1"),
                                Optional.empty()),
                        2)
                .startsWith("2 locks shown · 50 % scanned, stopped after 30 s — Keep scanning"));
        assertTrue(ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                true,
                                false,
                                OptionalDouble.of(0.2),
                                Optional.of("0:1"),
                                Optional.empty()),
                        50)
                .startsWith("50 locks shown · page full, 20 % scanned — Load more"));
        assertEquals(
                "Cannot read locks: down",
                ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                false,
                                false,
                                OptionalDouble.empty(),
                                Optional.empty(),
                                Optional.of("down")),
                        0));
    }

    @Test
    void showsTheTotalOfHeldLocksWhenCounted() {
        Snapshot all =
                new Snapshot(List.of(), true, false, false, OptionalDouble.of(1), Optional.empty(), Optional.empty());
        assertTrue(ScanStatus.text(all, 11, "100,000 locks held")
                .startsWith(
                        "11 locks shown · 11 of 11 matches, whole key space scanned · 100,000 locks held · updated "));
        Snapshot running = new Snapshot(
                List.of(), false, false, false, OptionalDouble.of(0.4), Optional.of("0:1"), Optional.empty());
        assertEquals(
                "3 locks shown so far · 40 % scanned — keep scanning… · ≥ 9 locks held, count stopped after 3 s",
                ScanStatus.text(running, 3, "≥ 9 locks held, count stopped after 3 s"));
        assertTrue(ScanStatus.text(all, 11, "").contains("scanned · updated "), "not counted yet: nothing said");
    }
}
