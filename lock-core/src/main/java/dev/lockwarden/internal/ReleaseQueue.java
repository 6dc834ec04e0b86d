package dev.lockwarden.internal;

import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The local waiters of one lock's release channel, in arrival order, and whom a release wakes: the
 * longest waiter not woken yet (FIFO, so one release costs one retry, not a herd). A release handed
 * over in this JVM ({@link #handOver}) is counted, so its pub/sub message, when it arrives, wakes
 * nobody else. {@link WakeupBus} owns the connection; this class only decides who wakes.
 * <p>
 * A {@link ReentrantLock} and its {@link Condition}, never a monitor: a virtual thread waiting here
 * does not pin its carrier thread on JDK 21–23.
 * <p>
 * Over 200 lines because the queue, the wake-ups it has given and the hand-overs it has counted change
 * under one lock: split up, a release message and a hand-over could each wake a waiter for one release.
 */
final class ReleaseQueue {
    /**
     * One waiter's place in the queue (its flag is guarded by the queue's lock). Each place has its own
     * condition, so a release wakes the one thread it picked, not every waiter only to let all but one
     * go back to sleep (with 8 waiters, 7 needless context switches per handoff).
     */
    static final class Place {
        private final Condition woken;
        private boolean signaled;

        private Place(Condition woken) {
            this.woken = woken;
        }
    }

    final String name;
    /** Counted down when Redis confirmed the subscription to {@link #name}. */
    final CountDownLatch confirmed = new CountDownLatch(1);
    /**
     * Whether Redis confirmed the subscription on the current connection: false until then and again
     * from a reconnect until its confirmation, while a release message could go unheard.
     */
    volatile boolean listening;
    /** Whether a SUBSCRIBE for this channel went out on the current connection. */
    volatile boolean subscribeSent;

    private final ArrayDeque<Place> queue = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    /** Set when the last waiter left: the queue is out of use (guarded by lock). */
    private boolean dead;
    /** Local releases whose waiter was woken before their message arrived (guarded by lock). */
    private int deliveredEarly;
    /**
     * Release messages that woke a waiter (not those of releases handed over already), and reconnects: a
     * hand-over checks that none came since its release was sent (guarded by lock).
     */
    private long heard;

    ReleaseQueue(String name) {
        this.name = name;
    }

    /** Adds a waiter at the end. */
    Place join() {
        Place p = new Place(lock.newCondition());
        lock.lock();
        try {
            queue.addLast(p);
        } finally {
            lock.unlock();
        }
        return p;
    }

    /**
     * Removes a waiter, passing an unused wake-up on so it is not lost.
     *
     * @return true if it was the last one: the queue is now out of use
     */
    boolean leave(Place p) {
        lock.lock();
        try {
            boolean hadSignal = p.signaled;
            queue.remove(p);
            if (hadSignal) {
                signalNext();
            }
            if (!queue.isEmpty()) {
                return false;
            }
            dead = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** True while threads wait here. */
    boolean hasWaiters() {
        lock.lock();
        try {
            return !dead && !queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** How many release messages (and reconnects) this queue has seen: the mark for {@link #handOver(long)}. */
    long heard() {
        lock.lock();
        try {
            return heard;
        } finally {
            lock.unlock();
        }
    }

    /**
     * This JVM released the lock: wakes the next waiter now, and the release message later wakes nobody —
     * unless a message came since {@code mark} (taken before the release was sent). That was the release's
     * own message coming back before its reply (Redlock, Cluster: the reply may wait for other nodes) and it
     * woke the longest waiter already, maybe before the release was done everywhere: that same waiter is woken
     * again (its next attempt finds the lock free) instead of the next one, which could overtake it.
     *
     * @return true if a waiter was woken and the message is counted as delivered
     */
    boolean handOver(long mark) {
        lock.lock();
        try {
            if (dead) {
                return false;
            }
            if (heard != mark) {
                Place longest = queue.peekFirst();
                if (longest != null && !longest.signaled) {
                    signal(longest);
                }
                return false;
            }
            if (signalNext()) {
                deliveredEarly++;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A {@link #handOver(long)} whose release found the lock no longer ours: no message of that release comes
     * (or, if the lock was gone, one that should wake someone), so the next message is not swallowed.
     */
    void retractHandOver() {
        lock.lock();
        try {
            if (deliveredEarly > 0) {
                deliveredEarly--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** A release message arrived: wakes the next waiter, unless that release was handed over already. */
    void released() {
        lock.lock();
        try {
            if (deliveredEarly > 0) {
                deliveredEarly--; // the wake-up of this release (or one before it) was handed over locally
                return;
            }
            heard++;
            signalNext(); // false = everyone is already awake: nothing to do
        } finally {
            lock.unlock();
        }
    }

    /** Messages may have been missed (the connection dropped): every waiter retries. */
    void wakeAll() {
        lock.lock();
        try {
            deliveredEarly = 0; // count afresh
            heard++;
            for (Place p : queue) {
                signal(p);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a wake-up {@code p} got before its next attempt. */
    void reset(Place p) {
        lock.lock();
        try {
            p.signaled = false;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code p} is woken or {@code millis} passed; true if woken. */
    boolean await(Place p, long millis) throws InterruptedException {
        long left = TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lockInterruptibly();
        try {
            while (!p.signaled) {
                if (left <= 0) {
                    return false;
                }
                left = p.woken.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Signals the first waiter not signalled yet; false if there is none. Caller holds lock. */
    private boolean signalNext() {
        for (Place p : queue) {
            if (!p.signaled) {
                signal(p);
                return true;
            }
        }
        return false;
    }

    private static void signal(Place p) {
        p.signaled = true;
        p.woken.signal(); // one thread waits on a place's condition: its owner
    }
}
