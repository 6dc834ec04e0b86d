package dev.lockwarden.store;

import dev.lockwarden.LocalPoolBusyException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Admits at most as many concurrent calls to one node as its pool has connections, first come first
 * served, so callers wait here (within their own budget, on a {@link Semaphore}: no monitor, no
 * pinned virtual thread) instead of timing out inside the pool as a fake Redis failure.
 */
final class ConnectionGate {
    private final Semaphore permits;
    private final long minWaitNanos;
    private final String address;

    /**
     * @param permits     concurrent calls admitted (the pool's connections reserved for gated calls)
     * @param minWaitMillis how long any call may wait for a permit, even with a smaller budget (the Redis timeout)
     */
    ConnectionGate(int permits, long minWaitMillis, String address) {
        this.permits = new Semaphore(permits, true);
        this.minWaitNanos = TimeUnit.MILLISECONDS.toNanos(minWaitMillis);
        this.address = address;
    }

    /**
     * Waits for a permit until {@code deadlineNanos} (0 = no deadline of the caller's own), but at
     * least the minimum wait.
     *
     * @throws LocalPoolBusyException if none became free in time
     */
    void enter(long deadlineNanos, Object what) {
        long wait = Math.max(minWaitNanos, deadlineNanos == 0 ? 0 : deadlineNanos - System.nanoTime());
        boolean got;
        try {
            got = permits.tryAcquire(wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.lockwarden.LockException(
                    "interrupted while waiting for a connection to Redis " + address + " (" + what + ")", e);
        }
        if (!got) {
            throw busy(address, what, TimeUnit.NANOSECONDS.toMillis(wait));
        }
    }

    void exit() {
        permits.release();
    }

    /** The error for a call that found no free connection ({@code waitedMillis < 0}: the pool's own wait). */
    static LocalPoolBusyException busy(String address, Object what, long waitedMillis) {
        return new LocalPoolBusyException("no connection of this JVM's pool to Redis " + address + " became free"
                + (waitedMillis >= 0 ? " within " + waitedMillis + " ms" : " in time") + " (" + what
                + "): Redis answers, but more threads call it at once than the pool has"
                + " connections. Raise LockManager.Builder.maxConnections(...) or LockOptions.waitUpTo(...).");
    }
}
