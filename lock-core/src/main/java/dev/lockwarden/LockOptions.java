package dev.lockwarden;

import java.time.Duration;
import java.util.Objects;

/**
 * How one lock is taken: TTL, how long to wait, whether the watchdog keeps it alive.
 * Immutable; every {@code with}-style method returns a copy.
 *
 * <pre>{@code
 * LockOptions.ttl(Duration.ofSeconds(30)).waitUpTo(Duration.ofSeconds(2)).autoRefresh(true)
 * }</pre>
 */
public final class LockOptions {
    /** Longest TTL accepted: a longer one is almost always a unit mistake. */
    public static final Duration MAX_TTL = Duration.ofDays(1);

    private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
    private static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

    private final Duration ttl;
    private final Duration waitUpTo;
    private final boolean autoRefresh;
    private final Duration retryInterval;
    private final LockSource source;
    private final String method;
    private final Duration holdAtLeast;

    private LockOptions(
            Duration ttl,
            Duration waitUpTo,
            boolean autoRefresh,
            Duration retryInterval,
            LockSource source,
            String method,
            Duration holdAtLeast) {
        this.ttl = ttl;
        this.holdAtLeast = holdAtLeast;
        this.waitUpTo = waitUpTo;
        this.autoRefresh = autoRefresh;
        this.retryInterval = retryInterval;
        this.source = source;
        this.method = method;
    }

    /**
     * @param ttl how long the lock lives unless refreshed (at most {@link #MAX_TTL})
     * @return options with that TTL, no waiting, auto-refresh on
     */
    public static LockOptions ttl(Duration ttl) {
        return new LockOptions(checkTtl(ttl), Duration.ZERO, true, DEFAULT_RETRY, LockSource.API, "", Duration.ZERO);
    }

    /** {@return 30 s TTL, no waiting, auto-refresh on} */
    public static LockOptions defaults() {
        return ttl(DEFAULT_TTL);
    }

    /**
     * @param wait how long to wait for a busy lock (0 = non-blocking, the default)
     * @return a copy that waits that long
     */
    public LockOptions waitUpTo(Duration wait) {
        Objects.requireNonNull(wait, "waitUpTo is null: use Duration.ZERO for non-blocking");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("waitUpTo " + wait + " is negative: use Duration.ZERO for non-blocking");
        }
        return new LockOptions(ttl, wait, autoRefresh, retryInterval, source, method, holdAtLeast);
    }

    /**
     * @param on whether the watchdog refreshes the lock every TTL/3 while it is held (default true)
     * @return a copy with that setting
     */
    public LockOptions autoRefresh(boolean on) {
        return new LockOptions(ttl, waitUpTo, on, retryInterval, source, method, holdAtLeast);
    }

    /**
     * Upper bound of the fallback retry sleep while waiting (default 1 s). Waiters are woken by a
     * pub/sub message on release; this interval only matters if that message is lost.
     *
     * @param interval at least 1 ms
     * @return a copy with that interval
     */
    public LockOptions retryInterval(Duration interval) {
        Objects.requireNonNull(interval, "retryInterval is null");
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("retryInterval " + interval + " must be at least 1 ms");
        }
        return new LockOptions(ttl, waitUpTo, autoRefresh, interval, source, method, holdAtLeast);
    }

    /**
     * Records which entry point and method takes the lock (for the dashboard).
     *
     * @param source API, CDI or AGENT
     * @param method {@code Class#method}, or null
     * @return a copy with that source
     */
    public LockOptions source(LockSource source, String method) {
        return new LockOptions(
                ttl,
                waitUpTo,
                autoRefresh,
                retryInterval,
                Objects.requireNonNull(source, "source"),
                method == null ? "" : method,
                holdAtLeast);
    }

    /**
     * Keeps the lock at least this long after acquisition (ShedLock's {@code lockAtLeastFor}): a
     * release sooner than that leaves the lock and its holder info in Redis until
     * {@code acquiredAt + holdAtLeast}, when it expires by itself. This makes "run once per period"
     * hold for a job that finishes in milliseconds on servers whose schedules fire a little apart.
     * Zero (the default) releases at once. Must not exceed the TTL.
     *
     * @param minimum zero up to the TTL
     * @return a copy that holds the lock at least that long
     */
    public LockOptions holdAtLeast(Duration minimum) {
        return new LockOptions(
                ttl, waitUpTo, autoRefresh, retryInterval, source, method, checkHoldAtLeast(minimum, ttl));
    }

    /** {@return the TTL} */
    public Duration ttl() {
        return ttl;
    }

    /** {@return the wait budget for a busy lock} */
    public Duration waitUpTo() {
        return waitUpTo;
    }

    /** {@return whether the watchdog refreshes the lock while it is held} */
    public boolean autoRefresh() {
        return autoRefresh;
    }

    /** {@return the upper bound of the fallback retry sleep while waiting} */
    public Duration retryInterval() {
        return retryInterval;
    }

    /** {@return the entry point that takes the lock} */
    public LockSource source() {
        return source;
    }

    /** {@return the method that takes the lock, or ""} */
    public String method() {
        return method;
    }

    /** {@return the minimum time the lock stays taken after acquisition, even if released sooner (zero = none)} */
    public Duration holdAtLeast() {
        return holdAtLeast;
    }

    private static Duration checkHoldAtLeast(Duration minimum, Duration ttl) {
        Objects.requireNonNull(minimum, "holdAtLeast is null: use Duration.ZERO for none");
        if (minimum.isNegative()) {
            throw new IllegalArgumentException("holdAtLeast " + minimum + " is negative: use Duration.ZERO for none");
        }
        if (minimum.compareTo(ttl) > 0) {
            throw new IllegalArgumentException("holdAtLeast " + minimum + " is longer than the ttl " + ttl
                    + ": a lock cannot be kept longer than it lives; raise the ttl to at least " + minimum
                    + " or shorten holdAtLeast");
        }
        return minimum;
    }

    private static Duration checkTtl(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl is null: pass e.g. Duration.ofSeconds(30)");
        if (ttl.toMillis() <= 0) {
            throw new IllegalArgumentException(
                    "ttl " + ttl + " must be positive (at least 1 ms), e.g. Duration.ofSeconds(30)");
        }
        if (ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("ttl " + ttl + " is longer than " + MAX_TTL
                    + ": use a shorter TTL with autoRefresh(true) for long work");
        }
        return ttl;
    }

    @Override
    public String toString() {
        return "LockOptions[ttl=" + ttl + ", waitUpTo=" + waitUpTo + ", autoRefresh=" + autoRefresh
                + ", retryInterval=" + retryInterval + ", source=" + source
                + (holdAtLeast.isZero() ? "" : ", holdAtLeast=" + holdAtLeast) + "]";
    }
}
