package dev.lockwarden.internal;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockLostException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A reentrant acquisition by a thread that already holds the lock: no Redis call. Releasing it
 * does nothing to the lock; the outermost handle's release does.
 */
final class NestedLockHandle implements LockHandle {
    private final DefaultLockHandle outer;
    private final AtomicBoolean released = new AtomicBoolean();

    NestedLockHandle(DefaultLockHandle outer) {
        this.outer = outer;
    }

    @Override
    public String name() {
        return outer.name();
    }

    @Override
    public long fencingToken() {
        return outer.fencingToken();
    }

    @Override
    public boolean isHeld() {
        return !released.get() && outer.isHeld();
    }

    @Override
    public void checkHeld() {
        if (released.get()) {
            throw new LockLostException(name(), "this nested handle was released");
        }
        outer.checkHeld();
    }

    @Override
    public Duration remainingTtl() {
        return released.get() ? Duration.ZERO : outer.remainingTtl();
    }

    @Override
    public boolean extend(Duration ttl) {
        return !released.get() && outer.extend(ttl);
    }

    @Override
    public boolean extend(Duration ttl, Duration holdAtLeast) {
        return !released.get() && outer.extend(ttl, holdAtLeast);
    }

    @Override
    public void release() {
        released.set(true);
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public LockHandle onLost(Consumer<LockLostEvent> listener) {
        outer.onLost(listener);
        return this;
    }

    @Override
    public String toString() {
        return "NestedLockHandle[" + outer + "]";
    }
}
