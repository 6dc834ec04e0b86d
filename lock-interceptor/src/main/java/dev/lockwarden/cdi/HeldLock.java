package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;
import java.time.Duration;

/** {@link CurrentLock} over the interceptor's handle, hiding release/close from application code. */
record HeldLock(LockHandle handle) implements CurrentLock {

    @Override
    public String name() {
        return handle.name();
    }

    @Override
    public long fencingToken() {
        return handle.fencingToken();
    }

    @Override
    public boolean isHeld() {
        return handle.isHeld();
    }

    @Override
    public void checkHeld() {
        handle.checkHeld();
    }

    @Override
    public Duration remainingTtl() {
        return handle.remainingTtl();
    }

    @Override
    public String toString() {
        return "CurrentLock[" + handle + "]";
    }
}
