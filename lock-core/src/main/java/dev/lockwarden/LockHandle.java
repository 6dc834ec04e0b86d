package dev.lockwarden;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Ownership of one lock. Ownership is this handle (a random 128-bit token), not a thread: the
 * handle may be released from any thread. Close it with try-with-resources.
 */
public interface LockHandle extends AutoCloseable {

    /** {@return the lock name} */
    String name();

    /** {@return the fencing token: strictly increasing per lock name; pass it to storage to reject stale writers} */
    long fencingToken();

    /**
     * {@return true while Redis has confirmed ownership within the last TTL and the lock was neither
     * released nor lost} Never true on a guess.
     */
    boolean isHeld();

    /** Throws {@link LockLostException} unless {@link #isHeld()}. */
    void checkHeld();

    /** {@return the time left before the lock expires unless refreshed, as known locally (zero if not held)} */
    Duration remainingTtl();

    /**
     * Explicit, token-checked refresh (for holders with {@code autoRefresh(false)}): sets the lock's
     * remaining TTL to {@code ttl} (longer or shorter than before). On Redlock a majority of nodes
     * must confirm within the new validity. Afterwards {@link #isHeld()} and {@link #remainingTtl()}
     * follow the new validity, and an auto-refreshed lock keeps being refreshed with {@code ttl}.
     *
     * @param ttl the new remaining TTL
     * @return true if extended; false if the lock is no longer ours (released, expired,
     *         force-released or taken over) — the handle is then lost and {@code onLost} fires
     *         (unless it had been released)
     * @throws IllegalArgumentException if {@code ttl} is not positive or longer than {@link LockOptions#MAX_TTL}
     * @throws LockStoreException if Redis (or a Redlock majority) cannot be reached, or fewer replicas than
     *         {@code replicaAcks} asks acknowledged the extension (the message names the master and the acks);
     *         the handle stays held, but counts on no more than the shorter of its old validity and {@code ttl}
     */
    boolean extend(Duration ttl);

    /**
     * {@link #extend(Duration)} that also restarts the minimum hold: a release sooner than
     * {@code holdAtLeast} after this call keeps the lock until then (as
     * {@link LockOptions#holdAtLeast(Duration)} does from acquisition; ShedLock's
     * {@code extend(lockAtMostFor, lockAtLeastFor)}). On false or an exception the hold is unchanged.
     *
     * @param ttl         the new remaining TTL
     * @param holdAtLeast zero up to {@code ttl}
     * @return as {@link #extend(Duration)}
     * @throws IllegalArgumentException if {@code ttl} is out of range, or {@code holdAtLeast} is negative or longer than it
     * @throws LockStoreException if Redis (or a Redlock majority) cannot be reached; the handle is unchanged
     */
    boolean extend(Duration ttl, Duration holdAtLeast);

    /** Releases the lock (one round trip, token-checked). Idempotent. */
    void release();

    /**
     * Registers a listener called once if the lock is lost (expired, force-released, refresh failed).
     *
     * @param listener called off the caller's thread, with why the lock was lost
     * @return this handle
     */
    LockHandle onLost(Consumer<LockLostEvent> listener);

    /** Same as {@link #release()}. */
    @Override
    void close();
}
