package dev.lockwarden.store;

/**
 * Reply of one acquire attempt.
 *
 * @param acquired       whether the lock is now ours
 * @param fence          our fencing token when acquired
 * @param holderTtlMillis the current holder's remaining TTL when busy (-1 if unknown)
 * @param validityMillis  how long the lock is known valid from when the attempt started (acquired only),
 *                        clock drift not yet subtracted (the engine subtracts it once, see {@link Drift})
 * @param counterBehind   the node's fence counter was left below {@code fence} (a clock floor that only
 *                        Redlock's phase 2 stores)
 */
public record AcquireResult(
        boolean acquired, long fence, long holderTtlMillis, long validityMillis, boolean counterBehind) {
    public static AcquireResult acquired(long fence, long validityMillis) {
        return new AcquireResult(true, fence, -1, validityMillis, false);
    }

    /** Acquired on one node whose counter is still below {@code fence}. */
    public static AcquireResult acquiredAboveCounter(long fence, long validityMillis) {
        return new AcquireResult(true, fence, -1, validityMillis, true);
    }

    public static AcquireResult busy(long holderTtlMillis) {
        return new AcquireResult(false, 0, holderTtlMillis, 0, false);
    }
}
