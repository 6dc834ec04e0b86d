package dev.lockwarden.metrics;

import java.beans.ConstructorProperties;

/**
 * Counters of one lock-name group (the part of the name before the first {@code ':'}, so
 * {@code payment:TX-1} and {@code payment:TX-2} count together and the number of series stays bounded).
 * A JMX open type: getters only.
 */
public final class LockStats {
    private final long attempts;
    private final long acquired;
    private final long busy;
    private final long storeErrors;
    private final long waitMillisTotal;
    private final long holdMillisTotal;
    private final long heldNow;
    private final long refreshes;
    private final long refreshFailures;
    private final long lost;
    private final long forceReleased;

    /**
     * The counters, in the order of the getters (the constructor JMX uses to rebuild an instance).
     *
     * @param attempts        acquire/tryAcquire calls
     * @param acquired        calls that got the lock
     * @param busy            calls that found it busy for their whole wait budget
     * @param storeErrors     calls that failed because Redis was unreachable or rejected the call
     * @param waitMillisTotal total time spent in acquire calls
     * @param holdMillisTotal total time locks were held until released
     * @param heldNow         locks held right now
     * @param refreshes       successful watchdog refreshes
     * @param refreshFailures watchdog refreshes that failed
     * @param lost            handles that lost their lock
     * @param forceReleased   locks force-released through this manager's inspector
     */
    @ConstructorProperties({
        "attempts",
        "acquired",
        "busy",
        "storeErrors",
        "waitMillisTotal",
        "holdMillisTotal",
        "heldNow",
        "refreshes",
        "refreshFailures",
        "lost",
        "forceReleased"
    })
    public LockStats(
            long attempts,
            long acquired,
            long busy,
            long storeErrors,
            long waitMillisTotal,
            long holdMillisTotal,
            long heldNow,
            long refreshes,
            long refreshFailures,
            long lost,
            long forceReleased) {
        this.attempts = attempts;
        this.acquired = acquired;
        this.busy = busy;
        this.storeErrors = storeErrors;
        this.waitMillisTotal = waitMillisTotal;
        this.holdMillisTotal = holdMillisTotal;
        this.heldNow = heldNow;
        this.refreshes = refreshes;
        this.refreshFailures = refreshFailures;
        this.lost = lost;
        this.forceReleased = forceReleased;
    }

    /** {@return acquire/tryAcquire calls} */
    public long getAttempts() {
        return attempts;
    }

    /** {@return calls that got the lock} */
    public long getAcquired() {
        return acquired;
    }

    /** {@return calls that found it busy for their whole wait budget} */
    public long getBusy() {
        return busy;
    }

    /** {@return calls that failed because Redis was unreachable or rejected the call} */
    public long getStoreErrors() {
        return storeErrors;
    }

    /** {@return total time spent in acquire calls} */
    public long getWaitMillisTotal() {
        return waitMillisTotal;
    }

    /** {@return total time locks were held until released} */
    public long getHoldMillisTotal() {
        return holdMillisTotal;
    }

    /** {@return locks held right now by this manager} */
    public long getHeldNow() {
        return heldNow;
    }

    /** {@return successful watchdog refreshes} */
    public long getRefreshes() {
        return refreshes;
    }

    /** {@return watchdog refreshes that failed (Redis error)} */
    public long getRefreshFailures() {
        return refreshFailures;
    }

    /** {@return handles that lost their lock} */
    public long getLost() {
        return lost;
    }

    /** {@return locks this manager's inspector force-released} */
    public long getForceReleased() {
        return forceReleased;
    }

    @Override
    public String toString() {
        return "LockStats[attempts=" + attempts + ", acquired=" + acquired + ", busy=" + busy + ", storeErrors="
                + storeErrors
                + ", heldNow=" + heldNow + ", refreshes=" + refreshes + ", refreshFailures=" + refreshFailures
                + ", lost=" + lost + ", forceReleased=" + forceReleased + "]";
    }
}
