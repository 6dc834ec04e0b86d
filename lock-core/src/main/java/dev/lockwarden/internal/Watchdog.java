package dev.lockwarden.internal;

import dev.lockwarden.metrics.LockMetrics;
import dev.lockwarden.store.Drift;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.Refreshed;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One thread per {@code LockManager} that keeps every held auto-refresh lock alive: all locks due
 * are refreshed together in one pipelined batch (per node; on Redis Cluster per slot owner, each
 * answering for its own locks) when the oldest reaches TTL/3, taking
 * along those due within the next TTL/6. It also notices expiry of non-refreshed locks.
 * <p>
 * Known field failures are designed out: release unregisters a handle <em>before</em> its release
 * round trip (no renewal outlives unlock); a failed refresh is retried quickly and the handle is
 * marked lost only when its confirmed validity has run out (so a Redis blip does not lose locks,
 * and a dead Redis never leaves a handle "held"); the thread outlives reconnects because each
 * batch uses the pooled client afresh.
 * <p>
 * Over 200 lines because scheduling, batching, retry after failure and expiry detection share one loop and one view of time; the why-comments are most of the rest.
 */
public final class Watchdog implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Watchdog.class.getName());
    private static final long RETRY_AFTER_FAILURE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final LockStore store;
    /** Why a token is gone (force-released or not); at most this many look-ups per batch on this thread. */
    private final LossCause lossCause;
    /** After a failover: the autoRefresh(false) locks, checked without extending them. */
    private final UnrefreshedCheck unrefreshed = new UnrefreshedCheck();

    private static final int MAX_CAUSE_LOOKUPS = 32;
    private static final String TOKEN_GONE =
            "Redis no longer has our token: the lock expired, was force-released or was taken over";
    private final Set<DefaultLockHandle> handles = ConcurrentHashMap.newKeySet();
    /** Guards wakeAt and rescan; a lock and condition rather than a monitor (no pinned virtual threads). */
    private final ReentrantLock signal = new ReentrantLock();

    private final Condition due = signal.newCondition();
    private final Thread thread;
    private final AtomicLong batches = new AtomicLong();
    private final OutageLog outage = new OutageLog(LOG);
    private volatile boolean closed;
    /**
     * When the thread plans to wake up next (nanoTime); registrations due earlier signal it. Written
     * under signal; volatile so that a registration due later (the common case) skips the lock.
     */
    private volatile long wakeAt;
    /** A registration came in since the last scan. Guarded by signal. */
    private boolean rescan;
    /** Why every lock is to be refreshed at once ({@link #recheckNow}); null = nothing asked. */
    private final AtomicReference<String> recheck = new AtomicReference<>();
    /**
     * "No lock due": how far ahead the thread plans to wake when it watches nothing (~73 years).
     * Not Long.MAX_VALUE: nanoTime may be any value, and {@code now + AWAKE} as well as the
     * differences {@code wakeAt - now} the thread compares must not overflow.
     */
    private static final long AWAKE = Long.MAX_VALUE / 4;

    /**
     * @param redis  where a force-release leaves its marker (to say why a token is gone)
     */
    public Watchdog(LockStore store, RedisDeployment redis) {
        this.store = store;
        this.lossCause = new LossCause(redis);
        this.wakeAt = System.nanoTime() + AWAKE;
        redis.onMasterSwitch(this::recheckNow);
        this.thread = new Thread(this::run, "lockwarden-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    LossCause lossCause() {
        return lossCause;
    }

    /** Starts watching a freshly acquired handle. */
    public void register(DefaultLockHandle h) {
        long ttl = TimeUnit.MILLISECONDS.toNanos(h.lease().ttlMillis());
        h.nextRefreshNanos = System.nanoTime() + ttl / 3;
        handles.add(h);
        reschedule(h);
    }

    /** The handle's refresh time or validity changed (extend): wake the thread if it is now due sooner. */
    public void reschedule(DefaultLockHandle h) {
        // wake the thread only if this lock needs it before its planned wake-up (rare with equal TTLs)
        long dueAt = h.autoRefresh() ? h.nextRefreshNanos : h.validUntilNanos();
        if (dueAt - wakeAt >= 0) {
            // the handle is in the set already: the planned wake-up (or the scan running now, which set
            // wakeAt to "no lock due" before it started) sees it; only an earlier due time needs the signal
            return;
        }
        signal.lock();
        try {
            if (dueAt - wakeAt < 0) {
                rescan = true;
                due.signalAll();
            }
        } finally {
            signal.unlock();
        }
    }

    /** After a failover ({@code why}): refreshes every auto-refresh lock, checks the others; returns at once. */
    public void recheckNow(String why) {
        recheck.set(why);
        signal.lock();
        try {
            rescan = true;
            due.signalAll();
        } finally {
            signal.unlock();
        }
    }

    /** Stops watching (before the release round trip). */
    public void unregister(DefaultLockHandle h) {
        handles.remove(h);
    }

    /** The handles currently watched (held locks of this manager). */
    public List<DefaultLockHandle> active() {
        return new ArrayList<>(handles);
    }

    /** Pipelined refresh batches sent so far. */
    public long batches() {
        return batches.get();
    }

    private void run() {
        while (!closed) {
            try {
                signal.lock();
                try {
                    wakeAt = System.nanoTime() + AWAKE; // awake: every registration asks for a re-scan
                    rescan = false;
                } finally {
                    signal.unlock();
                }
                String why = recheck.getAndSet(null); // set before its signal: seen now or in the next round
                long wait = tick(why);
                signal.lockInterruptibly();
                try {
                    if (wait > 0 && !rescan) {
                        wakeAt = System.nanoTime() + wait;
                        due.awaitNanos(wait);
                    }
                } finally {
                    signal.unlock();
                }
            } catch (InterruptedException e) {
                if (closed) {
                    return;
                }
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "watchdog tick failed; continuing", e);
            }
        }
    }

    /** Refreshes what is due (all if {@code recheck} says why), returns nanos until the next thing is due. */
    long tick(String recheck) {
        long now = System.nanoTime();
        long earliestRefresh = Long.MAX_VALUE;
        long next = TimeUnit.SECONDS.toNanos(1);
        for (DefaultLockHandle h : handles) {
            if (!h.isActive()) {
                handles.remove(h);
                continue;
            }
            if (now - h.validUntilNanos() >= 0) {
                handles.remove(h);
                h.markLost(
                        h.autoRefresh()
                                ? "its TTL passed before Redis confirmed a refresh (Redis unreachable or too slow)"
                                : "its TTL of " + h.lease().ttlMillis() + " ms passed (autoRefresh is off)");
                continue;
            }
            next = Math.min(next, h.validUntilNanos() - now);
            if (h.autoRefresh()) {
                earliestRefresh = Math.min(earliestRefresh, h.nextRefreshNanos - now);
            }
        }
        for (DefaultLockHandle h : unrefreshed.lost(store, handles, now, recheck)) {
            handles.remove(h); // autoRefresh(false): checked without extending (a refresh below would)
            h.markLost(lossCause.reason(h.lease(), TOKEN_GONE + " (re-checked after a " + unrefreshed.reason() + ")"));
        }
        if (earliestRefresh <= 0 || recheck != null) {
            // The oldest lock is due: refresh it with every lock due within the next TTL/6, so locks
            // taken around the same time fall into one batch per TTL/3.
            List<DefaultLockHandle> due = new ArrayList<>();
            for (DefaultLockHandle h : handles) {
                long sixth = TimeUnit.MILLISECONDS.toNanos(h.lease().ttlMillis()) / 6;
                if (h.autoRefresh() && h.isActive() && (recheck != null || h.nextRefreshNanos - now <= sixth)) {
                    due.add(h); // a recheck (after a failover) takes every lock along at once
                }
            }
            refresh(due, now, recheck == null ? TOKEN_GONE : TOKEN_GONE + " (re-checked after a " + recheck + ")");
            return 0; // re-scan: validity and the next due time changed
        }
        return Math.max(
                Math.min(Math.min(next, earliestRefresh), unrefreshed.dueIn(now)), TimeUnit.MILLISECONDS.toNanos(1));
    }

    private void refresh(List<DefaultLockHandle> candidates, long start, String gone) {
        List<DefaultLockHandle> due = new ArrayList<>(candidates.size());
        for (DefaultLockHandle h : candidates) {
            if (h.renewal.tryLock()) {
                due.add(h);
            } else {
                // an extend() renews it right now and sets the next due time; look again shortly
                h.nextRefreshNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
            }
        }
        try {
            refreshLocked(due, start, gone);
        } finally {
            for (DefaultLockHandle h : due) {
                h.renewal.unlock();
            }
        }
    }

    private void refreshLocked(List<DefaultLockHandle> due, long start, String gone) {
        if (due.isEmpty()) {
            return;
        }
        List<Lease> leases = new ArrayList<>(due.size());
        for (DefaultLockHandle h : due) {
            leases.add(h.lease());
        }
        batches.incrementAndGet();
        Refreshed replies;
        try {
            replies = store.refreshEach(leases);
        } catch (RuntimeException e) {
            failed(due, e.getMessage());
            return;
        }
        List<DefaultLockHandle> unconfirmed = new ArrayList<>();
        String error = null;
        int lookups = 0;
        for (int i = 0; i < due.size(); i++) {
            DefaultLockHandle h = due.get(i);
            long ttl = TimeUnit.MILLISECONDS.toNanos(h.lease().ttlMillis());
            if (!replies.confirmed(i)) {
                // only this lock's node failed: it stays in doubt, exactly as after a failed batch
                unconfirmed.add(h);
                error = error == null ? replies.failure(i) : error;
            } else if (replies.ours(i)) {
                h.meter().count(LockMetrics.Event.REFRESH);
                h.confirmed(start, ttl - Drift.nanos(h.lease().ttlMillis()));
                h.nextRefreshNanos = start + ttl / 3;
            } else {
                handles.remove(h);
                h.markLost(lookups++ < MAX_CAUSE_LOOKUPS ? lossCause.reason(h.lease(), gone) : gone);
            }
        }
        if (unconfirmed.isEmpty()) {
            outage.succeeded(System.nanoTime());
        } else {
            failed(unconfirmed, error);
        }
    }

    /** Refreshes Redis did not confirm: counted, logged as an outage and retried soon. */
    private void failed(List<DefaultLockHandle> unconfirmed, String error) {
        outage.failed(unconfirmed, error, System.nanoTime());
        for (DefaultLockHandle h : unconfirmed) {
            h.meter().count(LockMetrics.Event.REFRESH_FAILURE);
            long ttl = TimeUnit.MILLISECONDS.toNanos(h.lease().ttlMillis());
            // retry soon, well before the validity runs out
            h.nextRefreshNanos = System.nanoTime() + Math.min(RETRY_AFTER_FAILURE_NANOS, ttl / 10);
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
