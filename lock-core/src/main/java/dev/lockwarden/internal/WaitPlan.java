package dev.lockwarden.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The waiting policy of one acquire call: after each attempt it says what to do next — give up, listen
 * for the release message, or wait (woken early by the message) — from the wait budget, the backoff,
 * the wake-ups so far and the holder's remaining TTL. Pure: the caller passes the time and does the I/O.
 * One plan per call, used by one thread.
 */
final class WaitPlan {
    /** How long to wait for the release channel's subscription to be confirmed. */
    static final long SUBSCRIBE_WAIT_MILLIS = 1_000;
    /** The first sleep between attempts while the release channel's subscription is unconfirmed (then doubled). */
    static final long UNHEARD_RETRY_MILLIS = 250;
    /** Pause before retrying a store that answered too slowly. */
    static final long SLOW_STORE_RETRY_MILLIS = 50;
    /**
     * Short retries (2, 4, … 256 ms, ~0.5 s in all) after a wake-up that still found the lock busy: on Redlock
     * the first node's release message can arrive well before the release reached a majority on a loaded
     * machine, and only one node's message is heard.
     */
    static final int QUICK_RETRIES = 8;

    /** What to do after a busy answer. */
    enum Action {
        /** The budget is spent: report busy. */
        GIVE_UP,
        /** Subscribe to the release channel (waiting at most {@link Next#millis()} for it), then try again at once. */
        LISTEN,
        /** Wait up to {@link Next#millis()} for the release message, then try again. */
        WAIT
    }

    /** The next step and its bound in ms. */
    record Next(Action action, long millis) {}

    private final long startNanos;
    private final long deadlineNanos;
    private final long waitMillis;
    private final long retryMillis;
    private int backoffs;
    private int quickRetries;
    private int unheard;

    WaitPlan(long startNanos, Duration waitUpTo, Duration retryInterval) {
        this.startNanos = startNanos;
        this.deadlineNanos = startNanos + waitUpTo.toNanos();
        this.waitMillis = waitUpTo.toMillis();
        this.retryMillis = retryInterval.toMillis();
    }

    long startNanos() {
        return startNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** False for a single attempt (no wait budget): it never listens for release messages. */
    boolean mayWait() {
        return deadlineNanos != startNanos;
    }

    /**
     * The first wait of a call that queues behind this JVM's other waiters for the lock (fair handoff: the
     * release message wakes the longest waiter first), shorter while the channel is not heard yet.
     */
    long queueMillis(boolean listening) {
        long first = Backoff.sleepMillis(0, -1, waitMillis, retryMillis);
        return listening ? first : Math.min(first, UNHEARD_RETRY_MILLIS);
    }

    /** After no local connection became free (Redis answers): true = try again, false = report it. */
    boolean retryAfterPoolBusy(long nowNanos) {
        return deadlineNanos - nowNanos > 0;
    }

    /** After a store that answered too slowly: how long to pause before trying again, or -1 = report it. */
    long pauseAfterSlowStore(long nowNanos) {
        return leftMillis(nowNanos) <= SLOW_STORE_RETRY_MILLIS ? -1 : SLOW_STORE_RETRY_MILLIS;
    }

    /**
     * After a busy answer.
     *
     * @param listening       whether this call has joined the release channel yet
     * @param heard           whether the channel was confirmed subscribed before the attempt (only then does
     *                        a release after the busy answer surely wake us)
     * @param holderTtlMillis the holder's remaining TTL from the answer (-1 if unknown)
     */
    Next afterBusy(long nowNanos, boolean listening, boolean heard, long holderTtlMillis) {
        long left = leftMillis(nowNanos);
        if (left <= 0) {
            return new Next(Action.GIVE_UP, 0);
        }
        if (!listening) {
            return new Next(
                    Action.LISTEN, Math.min(left, SUBSCRIBE_WAIT_MILLIS)); // a release may have come before we listened
        }
        long sleep = quickRetries > 0
                // just woken, yet busy: the release may not have reached every node yet (Redlock)
                ? Math.min(left, 2L << (QUICK_RETRIES - quickRetries--))
                : Backoff.sleepMillis(backoffs++, holderTtlMillis, left, retryMillis);
        if (!heard) {
            // not listening yet (connecting, or moving to another node): a release now would go unheard, so look
            // again soon instead of sleeping out the whole fallback interval; doubling (250 ms, 500 ms, …) so
            // pub/sub that never comes back (e.g. an ACL without SUBSCRIBE) ends in the ordinary fallback
            sleep = Math.min(sleep, UNHEARD_RETRY_MILLIS << Math.min(unheard++, 6));
        }
        return new Next(Action.WAIT, sleep);
    }

    /** A release message woke the wait: the next busy answers retry quickly. */
    void woken() {
        quickRetries = QUICK_RETRIES;
    }

    private long leftMillis(long nowNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - nowNanos);
    }
}
