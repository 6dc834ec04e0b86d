package dev.lockwarden.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Rate-limits the watchdog's warnings during a Redis outage: one WARNING per lock per outage (the
 * first failed refresh of that lock), then one summary when refreshes succeed again, and one per
 * minute while the outage lasts. Watchdog thread only.
 */
final class OutageLog {
    private static final long SUMMARY_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final System.Logger log;
    private final Set<String> warned = new HashSet<>();
    private long outageStart;
    private long lastSummary;
    private long failedBatches;
    private String lastError;

    OutageLog(System.Logger log) {
        this.log = log;
    }

    /** A refresh batch failed. */
    void failed(List<DefaultLockHandle> due, String error, long now) {
        if (failedBatches == 0) {
            outageStart = now;
            lastSummary = now;
        }
        failedBatches++;
        lastError = error;
        for (DefaultLockHandle h : due) {
            if (warned.add(h.lease().token())) {
                log.log(
                        System.Logger.Level.WARNING,
                        "refresh of lock '" + h.name() + "' (fence " + h.fencingToken()
                                + ") failed; retrying until its TTL runs out (further failures of this outage are summarised): "
                                + error);
            }
        }
        if (now - lastSummary >= SUMMARY_EVERY_NANOS) {
            lastSummary = now;
            log.log(System.Logger.Level.WARNING, summary("still failing", now));
        }
    }

    /** A refresh batch succeeded: ends the outage, if any, with its summary. */
    void succeeded(long now) {
        if (failedBatches == 0) {
            return;
        }
        log.log(System.Logger.Level.WARNING, summary("recovered", now));
        failedBatches = 0;
        warned.clear();
        lastError = null;
    }

    boolean inOutage() {
        return failedBatches > 0;
    }

    private String summary(String state, long now) {
        return "lock refreshes " + state + " after " + TimeUnit.NANOSECONDS.toMillis(now - outageStart) + " ms: "
                + failedBatches + " failed batch(es) affecting " + warned.size() + " lock(s); last error: " + lastError;
    }
}
