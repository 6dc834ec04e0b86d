package dev.lockwarden.shedlock;

import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.time.Instant;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * A {@link LockConfiguration}'s times as a Lockwarden TTL and minimum hold, read as ShedLock's own
 * Redis providers read them: from now (ShedLock's {@link ClockProvider}) until {@code lockAtMostUntil}
 * and {@code lockAtLeastUntil}, rounded up to whole milliseconds.
 *
 * @param ttl         until {@code lockAtMostUntil}: the lock's TTL, with no watchdog
 * @param holdAtLeast until {@code lockAtLeastUntil} (zero if past): an unlock sooner keeps the lock until then
 */
record JobTimes(Duration ttl, Duration holdAtLeast) {

    static JobTimes of(LockConfiguration config) {
        Instant now = ClockProvider.now();
        Duration ttl = ceilMillis(Duration.between(now, config.getLockAtMostUntil()));
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException(
                    "ShedLock lock '" + ShedLockNames.shown(config.getName()) + "': lockAtMostFor "
                            + config.getLockAtMostFor()
                            + " has already run out, so the lock would expire at once; set lockAtMostFor"
                            + " (@SchedulerLock or defaultLockAtMostFor of @EnableSchedulerLock) to how long the job may run, e.g. PT10M");
        }
        if (ttl.compareTo(LockOptions.MAX_TTL) > 0) {
            throw new IllegalArgumentException(
                    "ShedLock lock '" + ShedLockNames.shown(config.getName()) + "': lockAtMostFor "
                            + config.getLockAtMostFor() + " is longer than " + LockOptions.MAX_TTL
                            + ", Lockwarden's longest TTL;"
                            + " set lockAtMostFor to at most PT24H (and lockAtLeastFor to at most that)");
        }
        Duration hold = ceilMillis(Duration.between(now, config.getLockAtLeastUntil()));
        hold = hold.isNegative() ? Duration.ZERO : hold.compareTo(ttl) > 0 ? ttl : hold;
        return new JobTimes(ttl, hold);
    }

    private static Duration ceilMillis(Duration d) {
        long ms = d.toMillis(); // rounds towards zero
        return Duration.ofMillis(d.isNegative() || d.equals(Duration.ofMillis(ms)) ? ms : ms + 1);
    }
}
