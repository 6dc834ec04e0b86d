package dev.lockwarden.internal;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.metrics.LockMeter;
import dev.lockwarden.store.Drift;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The real ownership of one lock. Its lifecycle (held → released | lost) is enforced here once:
 * a handle is held only while Redis confirmed it within the last TTL (minus clock drift).
 * Over 200 lines because the handle's whole lifecycle (held, released, lost, extend, holdAtLeast) is enforced in this one place on purpose.
 */
public final class DefaultLockHandle implements LockHandle {
    private static final int HELD = 0;
    private static final int RELEASED = 1;
    private static final int LOST = 2;

    private volatile Lease lease;
    private final long fence;
    /** Until when a release keeps the lock (holdAtLeast from acquisition, or from the last {@code extend(ttl, hold)}). */
    private volatile long holdUntilNanos;
    /**
     * Serialises renewals of this handle (the watchdog's batch and {@link #extend}), so a late
     * confirmation of one can never overwrite the validity the other established. Never a monitor:
     * it is held across a Redis round trip.
     */
    final ReentrantLock renewal = new ReentrantLock();

    private final boolean autoRefresh;
    private final Thread owner;
    private final HandleOwner manager;
    private final AtomicInteger state = new AtomicInteger(HELD);
    private final LostListeners listeners;
    private final long acquiredNanos;
    /** Who took it (for a lost event, which shows the acquisition it ended). */
    private final LockHolder holder;

    private volatile long validUntilNanos;
    private volatile String lostReason;
    private final LockMeter meter;
    /** Set once, when the handle is lost. */
    private volatile LockLostEvent lostEvent;
    /** When the next watchdog refresh is due (set by the watchdog and by {@link #extend}). */
    volatile long nextRefreshNanos;

    /** Held by {@code holder} with {@code options} until {@code validUntilNanos} ({@link System#nanoTime()}). */
    public DefaultLockHandle(
            Lease lease,
            long fence,
            LockHolder holder,
            LockOptions options,
            long validUntilNanos,
            LockMeter meter,
            HandleOwner manager) {
        this.lease = lease;
        this.fence = fence;
        this.holder = holder;
        this.meter = meter;
        this.autoRefresh = options.autoRefresh();
        this.validUntilNanos = validUntilNanos;
        this.owner = Thread.currentThread();
        this.manager = manager;
        this.acquiredNanos = System.nanoTime();
        this.holdUntilNanos = acquiredNanos + options.holdAtLeast().toNanos();
        this.listeners = new LostListeners(lease.name());
    }

    @Override
    public String name() {
        return lease.name();
    }

    @Override
    public long fencingToken() {
        return fence;
    }

    @Override
    public boolean isHeld() {
        return state.get() == HELD && System.nanoTime() - validUntilNanos < 0;
    }

    @Override
    public void checkHeld() {
        if (!isHeld()) {
            throw new LockLostException(name(), whyNotHeld());
        }
    }

    @Override
    public Duration remainingTtl() {
        long left = validUntilNanos - System.nanoTime();
        return state.get() == HELD && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public void release() {
        if (state.compareAndSet(HELD, RELEASED)) {
            manager.released(this);
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public boolean extend(Duration ttl) {
        long ttlMillis = ExtendArguments.ttlMillis(name(), ttl);
        if (state.get() != HELD) {
            return false;
        }
        try {
            renewal.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.lockwarden.LockException("interrupted while extending lock '" + name() + "'", e);
        }
        try {
            if (state.get() != HELD) {
                return false;
            }
            Lease next = lease.withTtl(ttlMillis);
            long start = System.nanoTime();
            long validity;
            try {
                validity = manager.extend(this, next);
            } catch (RuntimeException e) {
                // the refresh may have run (a timeout; too few replica acks): count on no more than the new TTL
                long newTtlEnds = start + TimeUnit.MILLISECONDS.toNanos(ttlMillis) - Drift.nanos(ttlMillis);
                if (newTtlEnds - validUntilNanos < 0) {
                    validUntilNanos = newTtlEnds;
                }
                throw e;
            }
            if (validity < 0) {
                markLost(manager.whyGone(
                        this,
                        "extend found the lock no longer ours: it expired, was force-released or was taken over"));
                return false;
            }
            lease = next;
            validUntilNanos = start + TimeUnit.MILLISECONDS.toNanos(validity) - Drift.nanos(ttlMillis);
            nextRefreshNanos = start + TimeUnit.MILLISECONDS.toNanos(ttlMillis) / 3;
        } finally {
            renewal.unlock();
        }
        manager.rescheduled(this);
        return state.get() == HELD;
    }

    @Override
    public boolean extend(Duration ttl, Duration holdAtLeast) {
        ExtendArguments.checkHold(name(), ttl, holdAtLeast);
        if (!extend(ttl)) {
            return false;
        }
        holdUntilNanos = System.nanoTime() + holdAtLeast.toNanos(); // from the confirmation on: kept at least that long
        return true;
    }

    /**
     * Registers a listener; it runs on the manager's listener executor, never on the watchdog or
     * heartbeat thread, exactly once: if the handle is lost already, at once (there).
     */
    @Override
    public LockHandle onLost(Consumer<LockLostEvent> listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        // added before reading lostEvent: markLost writes lostEvent before reading the list
        LostListeners.Listener l = listeners.add(listener);
        LockLostEvent e = lostEvent;
        if (e != null) {
            // lost before or while registering: markLost may or may not have seen this one; the flag decides
            manager.dispatch(() -> l.fire(e));
        }
        return this;
    }

    /** Marks the handle lost (once) and notifies listeners; no-op if already released or lost. */
    public void markLost(String reason) {
        if (state.get() != HELD) {
            return;
        }
        lostReason = reason;
        if (state.compareAndSet(HELD, LOST)) {
            LockLostEvent e = event();
            lostEvent = e;
            manager.lost(this, e);
            manager.dispatch(() -> listeners.fireAll(e));
        }
    }

    /** Marks the handle released without a store call (the manager releases a batch itself); true if it was held. */
    boolean markReleasedForBatch() {
        return state.compareAndSet(HELD, RELEASED);
    }

    /** A refresh started at {@code startNanos} was confirmed by Redis (caller holds {@link #renewal}). */
    void confirmed(long startNanos, long validityNanos) {
        validUntilNanos = startNanos + validityNanos;
    }

    /**
     * How long a release now must still keep the lock (holdAtLeast), in ms rounded up; 0 = delete.
     * Counted from when the acquire (or extend) reply arrived, so the lock is kept at least that long.
     */
    public long keepMillisOnRelease() {
        long left = holdUntilNanos - System.nanoTime();
        return left <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(left + 999_999);
    }

    public boolean isActive() {
        return state.get() == HELD;
    }

    public Lease lease() {
        return lease;
    }

    public boolean autoRefresh() {
        return autoRefresh;
    }

    public long validUntilNanos() {
        return validUntilNanos;
    }

    /** This handle's metrics series. */
    public LockMeter meter() {
        return meter;
    }

    /** Who took it. */
    LockHolder holder() {
        return holder;
    }

    /** How long this handle has existed (for hold-time metrics). */
    public long heldMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acquiredNanos);
    }

    public Thread owner() {
        return owner;
    }

    private String whyNotHeld() {
        return switch (state.get()) {
            case RELEASED -> "it was released";
            case LOST -> lostReason;
            default -> "its TTL passed without a confirmed refresh";
        };
    }

    private LockLostEvent event() {
        return new LockLostEvent(name(), fence, lostReason, Instant.now());
    }

    @Override
    public String toString() {
        return "LockHandle[" + name() + ", fence=" + fence + ", " + (isHeld() ? "held" : whyNotHeld()) + "]";
    }
}
