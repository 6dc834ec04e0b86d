package dev.lockwarden.store;

import java.util.concurrent.TimeUnit;

/**
 * Clock-drift allowance subtracted from a lock's validity: ttl·0.01 + 2 ms (as in Redlock).
 * Subtracted once, by whoever turns a store's validity (which never includes it, see
 * {@link AcquireResult#validityMillis()}) into a deadline: the engine, the watchdog, the handle.
 */
public final class Drift {
    private Drift() {}

    public static long millis(long ttlMillis) {
        return ttlMillis / 100 + 2;
    }

    public static long nanos(long ttlMillis) {
        return TimeUnit.MILLISECONDS.toNanos(millis(ttlMillis));
    }
}
