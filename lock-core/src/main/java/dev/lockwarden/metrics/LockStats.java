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

    @ConstructorProperties({"attempts", "acquired", "busy", "storeErrors", "waitMillisTotal", "holdMillisTotal",
            "heldNow", "refreshes", "refreshFailures", "lost", "forceReleased"})
    public LockStats(long attempts, long acquired, long busy, long storeErrors, long waitMillisTotal, long holdMillisTotal,
                     long heldNow, long refreshes, long refreshFailures, long lost, long forceReleased) {
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

    /** acquire/tryAcquire calls. */
    public long getAttempts() {
        return attempts;
    }

    /** Calls that got the lock. */
    public long getAcquired() {
        return acquired;
    }

    /** Calls that found it busy for their whole wait budget. */
    public long getBusy() {
        return busy;
    }

    /** Calls that failed because Redis was unreachable or rejected the call. */
    public long getStoreErrors() {
        return storeErrors;
    }

    /** Total time spent in acquire calls. */
    public long getWaitMillisTotal() {
        return waitMillisTotal;
    }

    /** Total time locks were held until released. */
    public long getHoldMillisTotal() {
        return holdMillisTotal;
    }

    /** Locks held right now by this manager. */
    public long getHeldNow() {
        return heldNow;
    }

    /** Successful watchdog refreshes. */
    public long getRefreshes() {
        return refreshes;
    }

    /** Watchdog refreshes that failed (Redis error). */
    public long getRefreshFailures() {
        return refreshFailures;
    }

    /** Handles that lost their lock. */
    public long getLost() {
        return lost;
    }

    /** Locks this manager's inspector force-released. */
    public long getForceReleased() {
        return forceReleased;
    }

    @Override
    public String toString() {
        return "LockStats[attempts=" + attempts + ", acquired=" + acquired + ", busy=" + busy + ", storeErrors=" + storeErrors
                + ", heldNow=" + heldNow + ", refreshes=" + refreshes + ", refreshFailures=" + refreshFailures
                + ", lost=" + lost + ", forceReleased=" + forceReleased + "]";
    }
}
