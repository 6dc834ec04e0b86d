package dev.lockwarden.shedlock;

import dev.lockwarden.LockLostException;
import java.time.Duration;

/**
 * The Lockwarden lock a running ShedLock job holds, read-only (ShedLock owns its unlock and extend):
 * {@link LockwardenLockProvider#currentLock()} returns it inside the job.
 */
public interface JobLock {

    /** {@return the Lockwarden lock name (the ShedLock name, mapped where Lockwarden needs it)} */
    String name();

    /** {@return the ShedLock lock name, as given in {@code @SchedulerLock(name = ...)}} */
    String jobName();

    /** {@return the fencing token: strictly increasing per lock name; pass it to storage to reject stale writers} */
    long fencingToken();

    /** {@return true while Redis has confirmed the lock within its {@code lockAtMostFor} and it was neither unlocked nor lost} */
    boolean isHeld();

    /** Throws {@link LockLostException} unless {@link #isHeld()}. */
    void checkHeld();

    /** {@return the time left before {@code lockAtMostFor} ends, as known locally (zero if not held)} */
    Duration remainingTtl();
}
