package dev.lockwarden.internal;

import dev.lockwarden.LockLostEvent;
import dev.lockwarden.store.Lease;

/** What a {@link DefaultLockHandle} needs from its manager (the engine). */
public interface HandleOwner {
    void released(DefaultLockHandle handle);

    void lost(DefaultLockHandle handle, LockLostEvent event);

    /** Runs listener callbacks off the watchdog thread. */
    void dispatch(Runnable callback);

    /** Token-checked refresh to {@code next.ttlMillis()}: validity in ms from the call's start, or -1 if not ours. */
    long extend(DefaultLockHandle handle, Lease next);

    /** Why the token is gone: {@code generic}, or that an operator force-released it. */
    default String whyGone(DefaultLockHandle handle, String generic) {
        return generic;
    }

    /** The handle's validity or refresh schedule changed. */
    void rescheduled(DefaultLockHandle handle);
}
