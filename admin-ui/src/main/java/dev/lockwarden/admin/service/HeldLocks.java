package dev.lockwarden.admin.service;

import java.time.Duration;
import java.time.Instant;

/**
 * The number of held locks as the last background count found it ({@link HealthService#held()}).
 *
 * @param count    the locks counted
 * @param complete whether the count saw the whole key space (then {@code count} is the total)
 * @param budget   how long the count was allowed to run
 * @param took     how long it ran
 * @param at       when it ended
 */
public record HeldLocks(long count, boolean complete, Duration budget, Duration took, Instant at) {
    /** {@code 100,000 locks held}, or {@code ≥ 40,000 locks held, count stopped after 3 s} when cut short. */
    public String text() {
        String n = String.format(java.util.Locale.ROOT, "%,d", count) + (count == 1 ? " lock held" : " locks held");
        if (complete) {
            return n;
        }
        long ms = budget.toMillis();
        return "≥ " + n + ", count stopped after " + (ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms");
    }
}
