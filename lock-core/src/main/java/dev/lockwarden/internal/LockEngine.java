package dev.lockwarden.internal;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.metrics.LockMeter;
import dev.lockwarden.metrics.LockMetrics;
import dev.lockwarden.store.AcquireResult;
import dev.lockwarden.store.Drift;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockNames;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.RedisDeployment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Takes and gives back locks for one {@code LockManager}: reentrancy, and the bookkeeping around a
 * handle's life (watchdog, events, metrics); the acquire loop is {@link AcquireLoop}'s.
 * <p>
 * Over 200 lines because it is the one owner of every handle's callbacks (released, lost, extended,
 * rescheduled) and wires the parts each of them touches; each part lives in its own class.
 */
public final class LockEngine implements HandleOwner, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LockEngine.class.getName());
    /** Longest wait for the batch release of the locks still held when the manager closes. */
    static final long CLOSE_BOUND_MILLIS = 3_000;

    private final LockStore store;
    private final KeySpace keys;
    private final boolean reentrant;
    private final String jvmId;
    private final Watchdog watchdog;
    private final WakeupBus wakeups;
    private final EventRecorder events;
    private final Heartbeat heartbeat;
    private final Reentrancy reentrancy = new Reentrancy();
    private final UnconfirmedAttempts unconfirmed;
    private final AcquireLoop acquireLoop;
    private final LockMetrics metrics;
    private final ActivityCounter activity;
    private final String holderName;
    /** Runs onLost listeners and background clean-ups: never the watchdog or heartbeat thread. */
    private final java.util.concurrent.ThreadPoolExecutor callbacks;

    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();

    public LockEngine(RedisDeployment redis, LockStore store, JvmIdentity id, EngineSettings settings) {
        String application = settings.application();
        this.store = store;
        this.unconfirmed = new UnconfirmedAttempts(store);
        this.keys = redis.keySpace();
        this.reentrant = settings.reentrant();
        this.jvmId = id.jvmId();
        this.holderName = application + "@" + id.host() + ":" + id.pid();
        this.callbacks = new java.util.concurrent.ThreadPoolExecutor(
                2, 2, 30, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "lockwarden-listener");
                    t.setDaemon(true);
                    return t;
                });
        callbacks.allowCoreThreadTimeOut(true);
        this.watchdog = new Watchdog(store, redis);
        this.metrics = new LockMetrics(application, id.jvmId(), settings.metrics(), watchdog::batches);
        LossSignals loss = new LossSignals(watchdog::active); // a force-release tells its holder at once
        this.wakeups = new WakeupBus(
                redis, KeySpace.JVM_PREFIX + id.jvmId() + ":wakeup", keys.forceReleasedChannel(), loss::message);
        ReplicaAckPolicy acks = new ReplicaAckPolicy(settings.replicaAcks(), redis.topology());
        this.acquireLoop = new AcquireLoop(store, unconfirmed, wakeups, keys, this::dispatch, acks);
        this.events = new EventRecorder(
                redis,
                Map.of("app", application, "jvm", id.jvmId()),
                settings.eventsMaxLen(),
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
        return Optional.ofNullable(
                acquire(name, options.waitUpTo().isZero() ? options : options.waitUpTo(Duration.ZERO), false));
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
        LockMeter meter = metrics.meter(name, options.source());
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

    private LockHandle acquireFromStore(String name, LockOptions options, boolean throwOnBusy, LockMeter meter) {
        LockHolder info = holderInfo(options);
        AcquireLoop.Granted g = acquireLoop.run(name, options, info, throwOnBusy);
        return g == null ? null : granted(g.lease(), g.result(), g.attemptNanos(), options, meter, info);
    }

    private LockHandle granted(
            Lease lease, AcquireResult r, long t0, LockOptions options, LockMeter meter, LockHolder holder) {
        long validUntil = t0 + TimeUnit.MILLISECONDS.toNanos(r.validityMillis()) - Drift.nanos(lease.ttlMillis());
        DefaultLockHandle h = new DefaultLockHandle(lease, r.fence(), holder, options, validUntil, meter, this);
        if (reentrant) {
            reentrancy.register(h);
        }
        watchdog.register(h);
        wakeups.startIfNeeded(); // from the first lock on, the holder hears a force-release (LossSignals)
        meter.acquired();
        // no acquire event: the release records the whole cycle, and ActivityCounter counts per application
        return h;
    }

    private LockHolder holderInfo(LockOptions o) {
        return new LockHolder(
                jvmId, Thread.currentThread().getName(), o.source(), o.method(), System.currentTimeMillis());
    }

    @Override
    public void released(DefaultLockHandle h) {
        watchdog.unregister(h); // before the round trip: no renewal may outlive the release
        reentrancy.forget(h);
        h.meter().ended(h.heldMillis());
        try {
            long keep = h.keepMillisOnRelease(); // holdAtLeast not over: the lock stays until then
            boolean wasOurs =
                    keep <= 0 && wakeups.anyWaiters() ? releaseHandingOver(h) : store.release(h.lease(), keep);
            if (!wasOurs) {
                events.record("release-late", h.name(), h.fencingToken()); // rare: the script found another holder
            }
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "release of lock '" + h.name() + "' failed; it expires by itself within "
                            + h.lease().ttlMillis() + " ms: " + e.getMessage());
        }
    }

    /**
     * Releases {@code h} and wakes the longest local waiter for it before the release message comes back — on
     * a single node as soon as the release is written: the waiter's attempt shares the connection, so Redis
     * runs it after the release. If the lock was no longer ours, the next release message is not swallowed.
     */
    private boolean releaseHandingOver(DefaultLockHandle h) {
        HandOver handOver = wakeups.handOver(keys.releasedChannel(h.name())); // before the release is sent
        if (handOver == HandOver.NONE) {
            return store.release(h.lease(), 0); // no local waiter of this lock: a message only if one marked it
        }
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
        LOG.log(
                System.Logger.Level.WARNING,
                "lock '" + h.name() + "' (fence " + h.fencingToken() + ", holder " + holderName + " thread "
                        + h.owner().getName() + ") lost: " + e.reason());
        // with the holder, so the lock's history shows the acquisition that ended here
        events.record(
                "lost",
                h.name(),
                h.fencingToken(),
                "reason",
                e.reason(),
                LockHolder.PACKED,
                h.holder().encode());
    }

    @Override
    public long extend(DefaultLockHandle h, Lease next) {
        long validity = store.extend(next);
        h.meter().count(validity >= 0 ? LockMetrics.Event.REFRESH : LockMetrics.Event.REFRESH_FAILURE);
        return validity;
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
        ShutdownRelease.run(store, batch, boundMillis);
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
