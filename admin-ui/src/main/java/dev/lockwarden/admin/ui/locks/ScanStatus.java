package dev.lockwarden.admin.ui.locks;

import dev.lockwarden.admin.service.LockSearch;
import java.time.Instant;

/** The status line of the Locks view: how many locks are shown and how far the filter's scan got. */
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
            return head + " · " + shown + " of " + shown + (shown == 1 ? " match" : " matches")
                    + ", whole key space scanned" + updated;
        }
        String scanned = s.scanned().isPresent()
                ? String.format(
                        java.util.Locale.ROOT, "%.0f %% scanned", s.scanned().getAsDouble() * 100)
                : "scan under way";
        if (s.full()) {
            return head + " · page full, " + scanned + " — Load more for the rest" + updated;
        }
        if (s.stopped()) {
            return head + " · " + scanned + ", stopped after " + LockSearch.BUDGET.toSeconds() + " s — Keep scanning"
                    + updated;
        }
        return head + " so far · " + scanned + " — keep scanning…" + total;
    }
}
