package dev.lockwarden.admin.ui.locks;

import dev.lockwarden.admin.service.LockSearch;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The status line of the Locks view: how many locks are shown and how far the filter's scan got, e.g.
 * {@code 11 locks shown · 11 of 11 matches, 300,001 keys scanned} when it has seen every key, or
 * {@code 3 locks shown so far · 40 % of 300,001 keys scanned, stopped after 30 s — Keep scanning}.
 */
final class ScanStatus {
    private ScanStatus() {}

    static String text(LockSearch.Snapshot s, int shown) {
        return text(s, shown, "");
    }

    /** @param held the total of held locks ({@code 100,000 locks held}; "" when not counted yet) */
    static String text(LockSearch.Snapshot s, int shown, String held) {
        String head = Formats.count(shown, "lock") + " shown";
        String total = held.isEmpty() ? "" : " · " + held;
        String updated = total + " · updated " + Formats.time(Instant.now());
        if (s.error().isPresent()) {
            return "Cannot read locks: " + s.error().get();
        }
        if (s.complete()) {
            int matches = s.locks().size();
            String keys = s.keyCount().isPresent()
                    ? number(s.keyCount().getAsLong()) + " keys scanned"
                    : "whole key space scanned";
            return head + " · " + number(shown) + " of " + number(matches) + (matches == 1 ? " match" : " matches")
                    + ", " + keys + updated;
        }
        String scanned = scanned(s);
        if (s.full()) {
            return head + " · page full, " + scanned + " — Load more for the rest" + updated;
        }
        if (s.stopped()) {
            return head + " so far · " + scanned + ", stopped after " + seconds(s.budget()) + " — Keep scanning"
                    + updated;
        }
        return head + " so far · " + scanned + " — scanning…" + total;
    }

    /**
     * {@code 40 % of 300,001 keys scanned} (keys scanned over the nodes' DBSIZE), rounded down and below 100 %
     * while keys are left; {@code 40 % scanned} when the key count is unknown; else {@code scan under way}.
     */
    private static String scanned(LockSearch.Snapshot s) {
        if (s.scanned().isEmpty()) {
            return "scan under way";
        }
        long percent = Math.min(99, (long) Math.floor(s.scanned().getAsDouble() * 100 + 1e-9));
        return percent + " %"
                + (s.keyCount().isPresent() ? " of " + number(s.keyCount().getAsLong()) + " keys" : "") + " scanned";
    }

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
