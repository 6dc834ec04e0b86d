package dev.lockwarden.admin.ui.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.admin.service.LockSearch;
import dev.lockwarden.admin.service.LockSearch.Snapshot;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ScanStatusTest {
    private static final OptionalLong UNKNOWN = OptionalLong.empty();

    /** A snapshot with {@code found} matches (their details do not matter to the status). */
    private static Snapshot snapshot(
            int found, boolean complete, boolean full, boolean stopped, OptionalDouble scanned, OptionalLong keys) {
        List<LockInfo> locks = Collections.nCopies(found, (LockInfo) null);
        return new Snapshot(
                locks,
                complete,
                full,
                stopped,
                scanned,
                keys.isPresent() && scanned.isPresent()
                        ? OptionalLong.of(Math.round(scanned.getAsDouble() * keys.getAsLong()))
                        : UNKNOWN,
                keys,
                LockSearch.BUDGET,
                complete ? Optional.empty() : Optional.of("0:1"),
                Optional.empty());
    }

    @Test
    void saysHowFarTheScanGotAndWhatIsLeft() {
        assertEquals(
                "3 locks shown so far · 40 % of 300,001 keys scanned — scanning…",
                ScanStatus.text(snapshot(3, false, false, false, OptionalDouble.of(0.4), OptionalLong.of(300_001)), 3));
        assertEquals(
                "3 locks shown so far · 40 % scanned — scanning…",
                ScanStatus.text(snapshot(3, false, false, false, OptionalDouble.of(0.4), UNKNOWN), 3),
                "no key count (DBSIZE refused): the share from the SCAN cursor");
        assertEquals(
                "1 lock shown so far · scan under way — scanning…",
                ScanStatus.text(snapshot(1, false, false, false, OptionalDouble.empty(), UNKNOWN), 1));
        assertTrue(ScanStatus.text(snapshot(11, true, false, false, OptionalDouble.of(1), OptionalLong.of(300_001)), 11)
                .startsWith("11 locks shown · 11 of 11 matches, 300,001 keys scanned · updated "));
        assertTrue(ScanStatus.text(snapshot(1, true, false, false, OptionalDouble.of(1), UNKNOWN), 1)
                .startsWith("1 lock shown · 1 of 1 match, whole key space scanned · updated "));
        assertTrue(
                ScanStatus.text(snapshot(11, true, false, false, OptionalDouble.of(1), OptionalLong.of(300_001)), 10)
                        .startsWith("10 locks shown · 10 of 11 matches, "),
                "one match was freed since the scan found it");
        assertTrue(
                ScanStatus.text(
                                snapshot(1_203, false, false, true, OptionalDouble.of(0.5), OptionalLong.of(2_000_000)),
                                1_203)
                        .startsWith(
                                "1,203 locks shown so far · 50 % of 2,000,000 keys scanned, stopped after 30 s — Keep scanning · updated "));
        assertTrue(ScanStatus.text(snapshot(50, false, true, false, OptionalDouble.of(0.2), OptionalLong.of(9_000)), 50)
                .startsWith("50 locks shown · page full, 20 % of 9,000 keys scanned — Load more for the rest"));
        assertEquals(
                "Cannot read locks: down",
                ScanStatus.text(
                        new Snapshot(
                                List.of(),
                                false,
                                false,
                                false,
                                OptionalDouble.empty(),
                                UNKNOWN,
                                UNKNOWN,
                                LockSearch.BUDGET,
                                Optional.empty(),
                                Optional.of("down")),
                        0));
    }

    @Test
    void roundsTheShareDownAndNeverSays100WhileKeysAreLeft() {
        assertTrue(ScanStatus.text(snapshot(0, false, false, false, OptionalDouble.of(0.999), OptionalLong.of(1000)), 0)
                .contains("99 % of 1,000 keys scanned"));
        assertTrue(ScanStatus.text(snapshot(0, false, false, false, OptionalDouble.of(0.29), OptionalLong.of(100)), 0)
                .contains("29 % of 100 keys scanned"));
        assertTrue(ScanStatus.text(snapshot(0, false, false, false, OptionalDouble.of(0.004), OptionalLong.of(100)), 0)
                .contains("0 % of 100 keys scanned"));
    }

    @Test
    void namesTheTimeBudgetTheScanHad() {
        Snapshot s = snapshot(2, false, false, true, OptionalDouble.of(0.1), OptionalLong.of(60_000));
        Snapshot quick = new Snapshot(
                s.locks(),
                false,
                false,
                true,
                s.scanned(),
                s.keysScanned(),
                s.keyCount(),
                Duration.ofMillis(250),
                s.cursor(),
                s.error());
        assertTrue(ScanStatus.text(quick, 2).contains("10 % of 60,000 keys scanned, stopped after 250 ms — Keep"));
    }

    @Test
    void showsTheTotalOfHeldLocksWhenCounted() {
        Snapshot all = snapshot(11, true, false, false, OptionalDouble.of(1), OptionalLong.of(300_001));
        assertTrue(ScanStatus.text(all, 11, "100,000 locks held")
                .startsWith("11 locks shown · 11 of 11 matches, 300,001 keys scanned · 100,000 locks held · updated "));
        Snapshot running = snapshot(3, false, false, false, OptionalDouble.of(0.4), UNKNOWN);
        assertEquals(
                "3 locks shown so far · 40 % scanned — scanning… · ≥ 9 locks held, count stopped after 3 s",
                ScanStatus.text(running, 3, "≥ 9 locks held, count stopped after 3 s"));
        assertTrue(ScanStatus.text(all, 11, "").contains("scanned · updated "), "not counted yet: nothing said");
    }
}
