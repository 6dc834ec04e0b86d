package dev.lockwarden.shedlock;

import dev.lockwarden.LockHandle;
import java.time.Duration;

/** One acquisition by the provider: the handle, shared by the lock ShedLock got and every lock extend returned. */
final class HeldJob implements JobLock {
    final LockHandle handle;
    private final String jobName;
    private volatile boolean ended;

    HeldJob(LockHandle handle, String jobName) {
        this.handle = handle;
        this.jobName = jobName;
    }

    /** Unlocked, or an extend found it no longer ours: no lock of ShedLock's refers to it any more. */
    void end() {
        ended = true;
    }

    boolean ended() {
        return ended;
    }

    @Override
    public String name() {
        return handle.name();
    }

    @Override
    public String jobName() {
        return jobName;
    }

    @Override
    public long fencingToken() {
        return handle.fencingToken();
    }

    @Override
    public boolean isHeld() {
        return !ended && handle.isHeld();
    }

    @Override
    public void checkHeld() {
        handle.checkHeld(); // released or lost: the handle says which
    }

    @Override
    public Duration remainingTtl() {
        return ended ? Duration.ZERO : handle.remainingTtl();
    }

    @Override
    public String toString() {
        return "JobLock[" + jobName + " -> " + handle + "]";
    }
}
