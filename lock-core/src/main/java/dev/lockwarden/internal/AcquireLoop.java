package dev.lockwarden.internal;

import dev.lockwarden.LocalPoolBusyException;
import dev.lockwarden.LockException;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.AcquireResult;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.NodeTimeoutException;
import dev.lockwarden.store.ReplicaAcks;
import dev.lockwarden.store.StoreTimeoutException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The acquire loop of one engine: an attempt, then what its {@link WaitPlan} says (give up, listen for the
 * release message, wait for it), until an attempt is granted. The plan decides; this class does the I/O.
 */
final class AcquireLoop {
    /** A granted attempt: its lease, the store's answer, and when the attempt started (its validity counts from then). */
    record Granted(Lease lease, AcquireResult result, long attemptNanos) {}

    private final LockStore store;
    private final UnconfirmedAttempts unconfirmed;
    private final WakeupBus wakeups;
    private final KeySpace keys;
    private final Consumer<Runnable> dispatch;
    private final ReplicaAckPolicy replicaAcks;

    /** @param dispatch runs background work (giving back an unconfirmed attempt) off the caller's thread */
    AcquireLoop(
            LockStore store,
            UnconfirmedAttempts unconfirmed,
            WakeupBus wakeups,
            KeySpace keys,
            Consumer<Runnable> dispatch,
            ReplicaAckPolicy replicaAcks) {
        this.replicaAcks = replicaAcks;
        this.store = store;
        this.unconfirmed = unconfirmed;
        this.wakeups = wakeups;
        this.keys = keys;
        this.dispatch = dispatch;
    }

    /**
     * Attempts until one is granted (its lease, answer and start) or the plan gives up: then null, or with
     * {@code throwOnBusy} a {@link LockNotAcquiredException}. Store errors are thrown, never reported as busy.
     */
    Granted run(String name, LockOptions options, LockHolder info, boolean throwOnBusy) {
        ReplicaAcks acks = replicaAcks.of(name, options); // a bad combination fails before any Redis call
        WaitPlan plan = new WaitPlan(System.nanoTime(), options.waitUpTo(), options.retryInterval());
        // the release channel's name only when this call may wait: a non-blocking attempt never needs it
        String channel = plan.mayWait() ? keys.releasedChannel(name) : null;
        Ticket ticket = null;
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
                Lease lease =
                        new Lease(name, JvmIdentity.newToken(), options.ttl().toMillis(), acks);
                AcquireResult r = attempt(lease, info, plan, channel != null);
                if (r == null) {
                    continue;
                }
                if (r.acquired()) {
                    return new Granted(lease, r, t0);
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
    private AcquireResult attempt(Lease lease, LockHolder info, WaitPlan plan, boolean waiter)
            throws InterruptedException {
        unconfirmed.giveBack(lease.name());
        try {
            return attempt(lease, info, plan.deadlineNanos(), waiter);
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

    private AcquireResult attempt(Lease lease, LockHolder info, long deadline, boolean waiter) {
        try {
            // a call that may wait marks a busy lock, so the holder's release sends the message it listens for
            return store.tryAcquire(lease, info, deadline, waiter);
        } catch (LockStoreException e) {
            // The reply may have been lost after Redis granted the lock (or a stalled Redis grants it when it
            // resumes): give our token back in the background so the caller learns of the failure at once,
            // and, if Redis cannot be asked now, before this JVM's next attempt on the name
            unconfirmed.add(lease);
            dispatch.accept(() -> unconfirmed.tryGiveBack(lease));
            throw e;
        }
    }

    private static LockNotAcquiredException busy(String name, long start, AcquireResult r) {
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        return new LockNotAcquiredException(
                name, waited, r.holderTtlMillis() >= 0 ? Duration.ofMillis(r.holderTtlMillis()) : null);
    }
}
