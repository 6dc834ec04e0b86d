package dev.lockwarden.cdi;

import dev.lockwarden.LockLostException;
import java.time.Duration;

/**
 * The lock held by the current {@link Locked @Locked} invocation, read-only: the interceptor owns
 * its release, so there is no {@code release()} or {@code close()} here.
 */
public interface CurrentLock {

    /** {@return the lock name, as rendered from the template} */
    String name();

    /** {@return fencing token: strictly increasing per lock name; pass it to storage to reject stale writers} */
    long fencingToken();

    /** {@return true while Redis has confirmed ownership within the last TTL and the lock was not lost} */
    boolean isHeld();

    /** Throws {@link LockLostException} unless {@link #isHeld()}. */
    void checkHeld();

    /** {@return time left before the lock expires unless refreshed, as known locally (zero if not held)} */
    Duration remainingTtl();
}
