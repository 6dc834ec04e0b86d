package dev.lockwarden.internal;

import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Acquire attempts whose reply never came (Redis did not answer in time, or the connection broke). Redis
 * may still have granted them: a stalled server runs the commands it already received once it resumes, so
 * such an attempt can hold the lock under a token nobody uses until its TTL passes. Each is given back in
 * the background at once and, if Redis could not be asked then, again before this JVM's next attempt on the
 * same name, until Redis answered or the attempt's TTL passed (then there is nothing left to give back).
 * The map is empty unless Redis failed recently, so the hot path pays one {@code isEmpty()}.
 */
final class UnconfirmedAttempts {
    private final LockStore store;
    /** Attempt → when its TTL has surely passed ({@link System#nanoTime()}). */
    private final Map<Lease, Long> leases = new ConcurrentHashMap<>();

    UnconfirmedAttempts(LockStore store) {
        this.store = store;
    }

    /** Remembers an attempt whose outcome is unknown. */
    void add(Lease lease) {
        leases.put(lease, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lease.ttlMillis()));
    }

    /**
     * Before a new attempt on {@code name}: gives back this JVM's unconfirmed attempts on it (and forgets
     * those of any name whose TTL passed). One that Redis cannot be asked about now is kept for the next time.
     */
    void giveBack(String name) {
        if (leases.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (Map.Entry<Lease, Long> e : leases.entrySet()) {
            if (now - e.getValue() > 0) {
                leases.remove(e.getKey());
            } else if (e.getKey().name().equals(name)) {
                tryGiveBack(e.getKey());
            }
        }
    }

    /** Releases the attempt's token if Redis holds it; forgets the attempt once Redis answered (granted or not, it is free now). */
    void tryGiveBack(Lease lease) {
        try {
            store.release(lease);
        } catch (RuntimeException unreachable) {
            return; // still unknown: kept until the next attempt on this name or its TTL
        }
        leases.remove(lease);
    }
}
