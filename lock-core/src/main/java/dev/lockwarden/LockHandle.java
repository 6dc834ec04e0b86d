package dev.lockwarden;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Ownership of one lock. Ownership is this handle (a random 128-bit token), not a thread: the
 * handle may be released from any thread. Close it with try-with-resources.
 */
public interface LockHandle extends AutoCloseable {

    /** The lock name. */
    String name();

    /** Fencing token: strictly increasing per lock name; pass it to storage to reject stale writers. */
    long fencingToken();

    /**
     * True while Redis has confirmed ownership within the last TTL and the lock was neither
     * released nor lost. Never true on a guess.
     */
    boolean isHeld();

    /** Throws {@link LockLostException} unless {@link #isHeld()}. */
    void checkHeld();

    /** Time left before the lock expires unless refreshed, as known locally (zero if not held). */
    Duration remainingTtl();

    /** Releases the lock (one round trip, token-checked). Idempotent. */
    void release();

    /** Registers a listener called once if the lock is lost (expired, force-released, refresh failed). */
    LockHandle onLost(Consumer<LockLostEvent> listener);

    /** Same as {@link #release()}. */
    @Override
    void close();
}
