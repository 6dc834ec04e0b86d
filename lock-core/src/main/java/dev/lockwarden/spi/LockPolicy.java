package dev.lockwarden.spi;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.OnBusy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The declarative policy of a locked method, as {@code @Locked} and an agent rule both describe it:
 * name template, TTL, wait, what to do when busy, auto-refresh, holdAtLeast. Unset TTL and wait
 * come from the manager's defaults at call time.
 *
 * @param key         the lock name template
 * @param ttl         the TTL, or empty for the manager's default ({@code lockwarden.ttl})
 * @param waitUpTo    the wait budget, or empty for the manager's default ({@code lockwarden.wait})
 * @param onBusy      FAIL (throw) or SKIP (do not run the body)
 * @param autoRefresh whether the watchdog refreshes the lock while the body runs
 * @param holdAtLeast keep the lock at least this long after acquisition (zero = release at once)
 */
public record LockPolicy(
        KeyTemplate key,
        Optional<Duration> ttl,
        Optional<Duration> waitUpTo,
        OnBusy onBusy,
        boolean autoRefresh,
        Duration holdAtLeast) {
    /**
     * Checks that every part is given.
     *
     * @param key         the lock name template
     * @param ttl         the TTL, or empty for the manager's default
     * @param waitUpTo    the wait budget, or empty for the manager's default
     * @param onBusy      FAIL or SKIP
     * @param autoRefresh whether the watchdog refreshes the lock
     * @param holdAtLeast minimum hold time (zero = none)
     */
    public LockPolicy {
        Objects.requireNonNull(ttl, "ttl (Optional.empty() for the default)");
        Objects.requireNonNull(waitUpTo, "waitUpTo (Optional.empty() for the default)");
        Objects.requireNonNull(onBusy, "onBusy");
        Objects.requireNonNull(holdAtLeast, "holdAtLeast (Duration.ZERO for none)");
    }

    /**
     * The options of one acquisition, unset values taken from {@code defaults}.
     *
     * @param defaults the manager's default options
     * @param source   the entry point (CDI, AGENT)
     * @param method   {@code Class#method}, shown as the holder's method
     * @return the options
     * @throws IllegalArgumentException holdAtLeast exceeds the (default) TTL
     */
    public LockOptions options(LockOptions defaults, LockSource source, String method) {
        LockOptions o = LockOptions.ttl(ttl.orElse(defaults.ttl()))
                .waitUpTo(waitUpTo.orElse(defaults.waitUpTo()))
                .autoRefresh(autoRefresh)
                .source(source, method);
        return holdAtLeast.isZero() ? o : o.holdAtLeast(holdAtLeast);
    }
}
