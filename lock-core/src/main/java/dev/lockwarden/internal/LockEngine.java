package dev.lockwarden.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.lockwarden.LocalPoolBusyException;
import dev.lockwarden.LockException;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.metrics.LockMetrics;
import dev.lockwarden.store.AcquireResult;
import dev.lockwarden.store.Drift;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockNames;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.NodeTimeoutException;
import dev.lockwarden.store.StoreTimeoutException;

/**
 * Takes and gives back locks for one {@code LockManager}: the acquire/wait loop, reentrancy, and
 * the bookkeeping around a handle's life (watchdog, events).
 * <p>
 * Over 200 lines because the acquire path is one loop on purpose: the wait budget, the local pool
 * check, store errors (retried within the budget, never reported as busy), the pub/sub wake-up and
 * the local handoff all decide the same "try again or give up" question, and splitting them would
 * spread that decision over several classes. Each step it delegates (store, watchdog, wake-ups,
 * events, metrics) lives in its own class.
 */
public final class LockEngine implements DefaultLockHandle.HandleOwner, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LockEngine.class.getName());
    /** Longest wait for the batch release of the locks still held when the manager closes. */
    static final long CLOSE_BOUND_MILLIS = 3_000;

    private final LockStore store;
    private final Ticker ticker;
    private final KeySpace keys;
    private final boolean reentrant;
    private final String jvmId;
    private final Watchdog watchdog;
    private final WakeupBus wakeups;
    private final EventRecorder events;
    private final Heartbeat heartbeat;
    private final Reentrancy reentrancy = new Reentrancy();
    private final UnconfirmedAttempts unconfirmed;
    private final LockMetrics metrics;
    private final ActivityCounter activity;
    private final String holderName;
    /** Runs onLost listeners and background clean-ups: never the watchdog or heartbeat thread. */
    private final java.util.concurrent.ThreadPoolExecutor callbacks;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();

    public LockEngine(RedisDeployment redis, LockStore store, JvmIdentity id, EngineSettings settings) {
        String application = settings.application();
        this.ticker = settings.ticker();
        this.store = store;
        this.unconfirmed = new UnconfirmedAttempts(store);
        this.keys = redis.keySpace();
        this.reentrant = settings.reentrant();
        this.jvmId = id.jvmId();
        this.holderName = application + "@" + id.host() + ":" + id.pid();
        this.callbacks = new java.util.concurrent.ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "lockwarden-listener");
                    t.setDaemon(true);
                    return t;
                });
        callbacks.allowCoreThreadTimeOut(true);
        this.watchdog = new Watchdog(store, redis, settings.ticker());
        this.metrics = new LockMetrics(application, id.jvmId(), settings.metrics(), watchdog::batches);
        this.wakeups = new WakeupBus(redis, KeySpace.JVM_PREFIX + id.jvmId() + ":wakeup");
        this.events = new EventRecorder(redis, Map.of("app", application, "jvm", id.jvmId()), settings.eventsMaxLen(),
                settings.historyRetentionMillis());
        this.activity = new ActivityCounter(redis.first().redis(), application, metrics::activityTotals);
        // application, host and pid once per JVM, not in every lock's info hash: the heartbeat renews them
        this.heartbeat = new Heartbeat(redis, id.jvmId(), new JvmRecord(application, id.host(), id.pid()));
        // one history entry per cycle, written by the release script itself (first node only, like the
        // other events: that is where the inspector reads them)
        redis.first().recordCycles(settings.recordCycles() ? settings.historyRetentionMillis() : 0);
    }

    /** Acquires, waiting up to {@code options.waitUpTo()}; busy → {@link LockNotAcquiredException}. */
    public LockHandle acquire(String name, LockOptions options) {
        return acquire(name, options, true);
    }

    /** One attempt; never waits, and busy is an empty result rather than an exception (cheap on hot paths). */
    public Optional<LockHandle> tryAcquire(String name, LockOptions options) {
        // no copy of the options when they already say "do not wait" (the common case: one allocation less per call)
        return Optional.ofNullable(acquire(name, options.waitUpTo().isZero() ? options : options.waitUpTo(Duration.ZERO), false));
    }

    private LockHandle acquire(String name, LockOptions options, boolean throwOnBusy) {
        LockNames.check(name);
        if (closed) {
            throw new IllegalStateException("LockManager is closed: cannot acquire '" + name + "'");
        }
        if (reentrant) {
            LockHandle nested = reentrancy.nested(name);
            if (nested != null) {
                return nested;
            }
        }
        LockMetrics.Meter meter = metrics.meter(name, options.source());
        meter.count(LockMetrics.Event.ATTEMPT);
        long begin = System.nanoTime();
        try {
            LockHandle h = acquireFromStore(name, options, throwOnBusy, meter);
            if (h == null) {
                meter.count(LockMetrics.Event.BUSY);
            }
            return h;
        } catch (LockNotAcquiredException e) {
            meter.count(LockMetrics.Event.BUSY);
            throw e;
        } catch (LockStoreException e) {
            meter.count(LockMetrics.Event.STORE_ERROR);
            throw e;
        } finally {
            meter.waited(System.nanoTime() - begin);
        }
    }

    /** The acquire loop: one attempt after another until granted or the {@link WaitPlan} gives up. */
    private LockHandle acquireFromStore(String name, LockOptions options, boolean throwOnBusy, LockMetrics.Meter meter) {
        LockHolder info = holderInfo(options);
        WaitPlan plan = new WaitPlan(System.nanoTime(), options.waitUpTo(), options.retryInterval());
        // the release channel's name only when this call may wait: a non-blocking attempt never needs it
        String channel = plan.mayWait() ? keys.releasedChannel(name) : null;
        WakeupBus.Ticket ticket = null;
        try {
            if (channel != null && wakeups.hasWaiters(channel)) {
                // fair handoff: others in this JVM already wait for this lock; queue behind them instead of barging in
                ticket = wakeups.join(channel);
                ticket.await(plan.queueMillis(ticket.listening()));
            }
            while (true) {
                if (ticket != null) {
                    ticket.reset();
                }
                // read before the attempt: only then does a release after a busy answer surely wake us
                boolean heard = ticket != null && ticket.listening();
                long t0 = System.nanoTime();
                // a fresh token per attempt: a late release of a timed-out attempt can never
                // delete what a later attempt took on a node that was stalled in between
                Lease lease = new Lease(name, JvmIdentity.newToken(), options.ttl().toMillis());
                AcquireResult r = attempt(lease, info, plan);
                if (r == null) {
                    continue;
                }
                if (r.acquired()) {
                    return granted(lease, r, t0, options, meter, info);
                }
                WaitPlan.Next next = plan.afterBusy(System.nanoTime(), ticket != null, heard, r.holderTtlMillis());
                switch (next.action()) {
                    case GIVE_UP -> {
                        if (!throwOnBusy) {
                            return null;
                        }
                        throw busy(name, plan.startNanos(), r);
                    }
                    case LISTEN -> {
                        ticket = wakeups.join(channel);
                        ticket.awaitSubscribed(next.millis());
                    }
                    case WAIT -> {
                        if (ticket.await(next.millis())) {
                            plan.woken();
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for lock '" + name + "'", e);
        } finally {
            if (ticket != null) {
                ticket.close();
            }
        }
    }

    /**
     * One attempt; null = try again at once (no local connection was free, or the store was slow, within the
     * budget: that wait is part of it). Store errors are reported, never as "busy".
     */
    private AcquireResult attempt(Lease lease, LockHolder info, WaitPlan plan) throws InterruptedException {
        unconfirmed.giveBack(lease.name());
        try {
            return attempt(lease, info, plan.deadlineNanos());
        } catch (LocalPoolBusyException poolBusy) {
            if (!plan.retryAfterPoolBusy(System.nanoTime())) {
                throw poolBusy;
            }
            return null;
        } catch (StoreTimeoutException | NodeTimeoutException slow) { // a quorum or one node too slow
            long pause = plan.pauseAfterSlowStore(System.nanoTime());
            if (pause < 0) {
                throw slow;
            }
            Thread.sleep(pause); // slow, maybe not down: retry within the budget
            return null;
        }
    }

    private AcquireResult attempt(Lease lease, LockHolder info, long deadline) {
        try {
            return store.tryAcquire(lease, info, deadline);
        } catch (LockStoreException e) {
            // The reply may have been lost after Redis granted the lock (or a stalled Redis grants it when it
            // resumes): give our token back in the background so the caller learns of the failure at once,
            // and, if Redis cannot be asked now, before this JVM's next attempt on the name
            unconfirmed.add(lease);
            dispatch(() -> unconfirmed.tryGiveBack(lease));
            throw e;
        }
    }

    private LockHandle granted(Lease lease, AcquireResult r, long t0, LockOptions options, LockMetrics.Meter meter,
                               LockHolder holder) {
        long validUntil = t0 + TimeUnit.MILLISECONDS.toNanos(r.validityMillis()) - Drift.nanos(lease.ttlMillis());
        DefaultLockHandle h = new DefaultLockHandle(lease, r.fence(), holder, options, validUntil, meter, this);
        if (reentrant) {
            reentrancy.register(h);
        }
        watchdog.register(h);
        meter.acquired();
        // no acquire event: the release records the whole cycle, and ActivityCounter counts per application
        return h;
    }

    private LockHolder holderInfo(LockOptions o) {
        return new LockHolder(jvmId, Thread.currentThread().getName(), o.source(), o.method(), System.currentTimeMillis());
    }

    private static LockNotAcquiredException busy(String name, long start, AcquireResult r) {
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        return new LockNotAcquiredException(name, waited,
                r.holderTtlMillis() >= 0 ? Duration.ofMillis(r.holderTtlMillis()) : null);
    }

    @Override
    public void released(DefaultLockHandle h) {
        watchdog.unregister(h); // before the round trip: no renewal may outlive the release
        reentrancy.forget(h);
        h.meter().ended(h.heldMillis());
        try {
            long keep = h.keepMillisOnRelease(); // holdAtLeast not over: the lock stays until then
            boolean wasOurs = keep <= 0 && wakeups.anyWaiters() ? releaseHandingOver(h) : store.release(h.lease(), keep);
            if (!wasOurs) {
                events.record("release-late", h.name(), h.fencingToken()); // rare: the script found another holder
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "release of lock '" + h.name() + "' failed; it expires by itself within "
                    + h.lease().ttlMillis() + " ms: " + e.getMessage());
        }
    }

    /**
     * Releases {@code h} and wakes the longest local waiter for it before the release message comes back — on
     * a single node as soon as the release is written: the waiter's attempt shares the connection, so Redis
     * runs it after the release. If the lock was no longer ours, the next release message is not swallowed.
     */
    private boolean releaseHandingOver(DefaultLockHandle h) {
        WakeupBus.HandOver handOver = wakeups.handOver(keys.releasedChannel(h.name())); // before the release is sent
        boolean wasOurs;
        try {
            wasOurs = store.release(h.lease(), 0, handOver::give);
        } catch (RuntimeException e) {
            handOver.retract(); // it may never have run: count on no message of it
            throw e;
        }
        if (!wasOurs) {
            handOver.retract();
        }
        return wasOurs;
    }

    @Override
    public void lost(DefaultLockHandle h, LockLostEvent e) {
        watchdog.unregister(h);
        reentrancy.forget(h);
        h.meter().count(LockMetrics.Event.LOST);
        h.meter().ended(h.heldMillis());
        LOG.log(System.Logger.Level.WARNING, "lock '" + h.name() + "' (fence " + h.fencingToken() + ", holder " + holderName
                + " thread " + h.owner().getName() + ") lost: " + e.reason());
        // with the holder, so the lock's history shows the acquisition that ended here
        events.record("lost", h.name(), h.fencingToken(), "reason", e.reason(), LockHolder.PACKED, h.holder().encode());
    }

    @Override
    public long extend(DefaultLockHandle h, Lease next) {
        long validity = store.extend(next);
        h.meter().count(validity >= 0 ? LockMetrics.Event.REFRESH : LockMetrics.Event.REFRESH_FAILURE);
        return validity;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public String whyGone(DefaultLockHandle h, String generic) {
        return watchdog.lossCause().reason(h.lease(), generic);
    }

    @Override
    public void rescheduled(DefaultLockHandle h) {
        watchdog.reschedule(h);
    }

    @Override
    public void dispatch(Runnable callback) {
        try {
            callbacks.execute(callback);
        } catch (java.util.concurrent.RejectedExecutionException closedAlready) {
            callback.run(); // after close: run here rather than drop a listener call
        }
    }

    /**
     * Releases every lock still held in one batch per node, waiting at most {@code boundMillis}
     * (the shutdown hook must not hang the JVM's exit on a dead Redis). Locks not confirmed
     * released expire by themselves within their TTL.
     */
    public void releaseAllHeld(long boundMillis) {
        List<DefaultLockHandle> batch = new ArrayList<>();
        for (DefaultLockHandle h : watchdog.active()) {
            if (h.markReleasedForBatch()) {
                watchdog.unregister(h); // before the round trip, as for a single release
                reentrancy.forget(h);
                h.meter().ended(h.heldMillis());
                batch.add(h);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        List<Lease> leases = new ArrayList<>(batch.size());
        long[] keep = new long[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            leases.add(batch.get(i).lease());
            keep[i] = batch.get(i).keepMillisOnRelease();
        }
        Thread releaser = new Thread(() -> {
            try {
                store.releaseAll(leases, keep);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "releasing " + leases.size() + " lock(s) at shutdown failed; they expire"
                        + " by themselves within their TTL: " + e.getMessage());
            }
        }, "lockwarden-release-all");
        releaser.setDaemon(true);
        releaser.start();
        try {
            releaser.join(boundMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (releaser.isAlive()) {
            LOG.log(System.Logger.Level.WARNING, "releasing " + leases.size() + " lock(s) took longer than " + boundMillis
                    + " ms; not waiting any longer: they expire by themselves within their TTL");
        }
    }

    public LockStore store() {
        return store;
    }

    public Watchdog watchdog() {
        return watchdog;
    }

    public LockMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        // an application shutting down gives its locks back instead of leaving them to expire
        releaseAllHeld(CLOSE_BOUND_MILLIS);
        wakeups.close();
        watchdog.close();
        events.close();
        heartbeat.close();
        activity.close(); // the last counts, before the store's connections close
        callbacks.shutdown();
        store.close();
        metrics.close();
    }
}
