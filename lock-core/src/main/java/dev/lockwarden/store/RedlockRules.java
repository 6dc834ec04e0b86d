package dev.lockwarden.store;

/** The numbers Redlock's safety rests on: how many nodes it accepts and how long one node may take. */
public final class RedlockRules {
    /**
     * Lower bound of the per-node timeout, so short TTLs do not turn scheduling jitter, a GC pause or
     * a fresh connection into "node down" (a majority of those would fail the attempt).
     */
    static final long MIN_NODE_TIMEOUT_MILLIS = 100;

    private RedlockRules() {}

    /** Rejects node counts Redlock cannot use safely. */
    public static void checkNodeCount(int n) {
        if (n < 3 || n % 2 == 0) {
            throw new IllegalArgumentException("redlock(...) got " + n + " Redis URI(s); it needs an odd number of"
                    + " independent nodes, at least 3 (5 recommended), so that two majorities always share a node");
        }
    }

    /** How long one acquire step waits for a node: about 5 % of the TTL, at least 100 ms, at most half the TTL. */
    public static long nodeTimeoutMillis(long ttlMillis) {
        return Math.max(1, Math.min(Math.max(MIN_NODE_TIMEOUT_MILLIS, ttlMillis / 20), ttlMillis / 2));
    }
}
