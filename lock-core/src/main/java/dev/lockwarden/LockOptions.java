package dev.lockwarden;

import java.time.Duration;
import java.util.Objects;

/**
 * How one lock is taken: TTL, how long to wait, whether the watchdog keeps it alive, how many replicas must
 * acknowledge it. Immutable; every {@code with}-style method returns a copy.
 * <p>
 * Over 200 lines because each option carries its checks and its documentation.
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
    /** Replicas that must acknowledge; -1 = not set here (the manager's default applies), 0 = off. */
    private final int replicaAcks;

    private final Duration replicaAcksTimeout;

    private LockOptions(
            Duration ttl,
            Duration waitUpTo,
            boolean autoRefresh,
            Duration retryInterval,
            LockSource source,
            String method,
            Duration holdAtLeast,
            int replicaAcks,
            Duration replicaAcksTimeout) {
        this.ttl = ttl;
        this.replicaAcks = replicaAcks;
        this.replicaAcksTimeout = replicaAcksTimeout;
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
        return new LockOptions(
                checkTtl(ttl),
                Duration.ZERO,
                true,
                DEFAULT_RETRY,
                LockSource.API,
                "",
                Duration.ZERO,
                -1,
                Duration.ZERO);
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
        return new LockOptions(
                ttl, wait, autoRefresh, retryInterval, source, method, holdAtLeast, replicaAcks, replicaAcksTimeout);
    }

    /**
     * @param on whether the watchdog refreshes the lock every TTL/3 while it is held (default true)
     * @return a copy with that setting
     */
    public LockOptions autoRefresh(boolean on) {
        return new LockOptions(
                ttl, waitUpTo, on, retryInterval, source, method, holdAtLeast, replicaAcks, replicaAcksTimeout);
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
        return new LockOptions(
                ttl, waitUpTo, autoRefresh, interval, source, method, holdAtLeast, replicaAcks, replicaAcksTimeout);
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
                holdAtLeast,
                replicaAcks,
                replicaAcksTimeout);
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
                ttl,
                waitUpTo,
                autoRefresh,
                retryInterval,
                source,
                method,
                checkHoldAtLeast(minimum, ttl),
                replicaAcks,
                replicaAcksTimeout);
    }

    /**
     * Hands the lock out only after {@code replicas} replicas of its Redis master acknowledged it
     * ({@code WAIT replicas timeout}); fewer within the timeout → the lock is released and the caller gets a
     * {@link LockStoreException} naming the master and the acknowledgements it got. Refreshes and
     * {@link LockHandle#extend} wait the same way (too few acknowledgements: a failed refresh). Overrides the
     * manager's {@code replicaAcks}; {@code replicas = 0} switches it off for this lock. Single node (and
     * Sentinel) only: Redlock and Redis Cluster refuse it (docs/failover.md).
     *
     * @param replicas at least 0 (0 = off)
     * @param timeout  how long to wait for them: at least 1 ms, shorter than the TTL and the Redis timeout
     * @return a copy that waits for that many replicas
     */
    public LockOptions replicaAcks(int replicas, Duration timeout) {
        Objects.requireNonNull(timeout, "replicaAcks timeout is null: pass e.g. Duration.ofMillis(100)");
        if (replicas < 0) {
            throw new IllegalArgumentException("replicaAcks replicas " + replicas + " is negative: use 0 for off");
        }
        if (timeout.toMillis() <= 0) {
            throw new IllegalArgumentException("replicaAcks timeout " + timeout
                    + " must be at least 1 ms, e.g. Duration.ofMillis(100) (replicas = 0 switches it off)");
        }
        if (replicas > 0 && timeout.compareTo(ttl) >= 0) {
            throw new IllegalArgumentException("replicaAcks timeout " + timeout + " is not shorter than the ttl " + ttl
                    + ": the lock could expire while the replicas are awaited; shorten the timeout");
        }
        return new LockOptions(
                ttl, waitUpTo, autoRefresh, retryInterval, source, method, holdAtLeast, replicas, timeout);
    }

    /** {@return replicas that must acknowledge the lock: -1 = not set here (the manager's default), 0 = off} */
    public int replicaAcks() {
        return replicaAcks;
    }

    /** {@return how long to wait for the replicas' acknowledgement (zero when {@link #replicaAcks()} is not set)} */
    public Duration replicaAcksTimeout() {
        return replicaAcksTimeout;
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
                + (holdAtLeast.isZero() ? "" : ", holdAtLeast=" + holdAtLeast)
                + (replicaAcks < 0 ? "" : ", replicaAcks=" + replicaAcks + "/" + replicaAcksTimeout) + "]";
    }
}
