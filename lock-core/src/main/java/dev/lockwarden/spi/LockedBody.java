package dev.lockwarden.spi;

import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;

/**
 * Runs a body under a lock by the rules every entry point shares ({@code LockManager.withLock},
 * {@code @Locked}, the agent): busy under {@link OnBusy#SKIP} does not run the body; a lock lost
 * while the body ran is reported after it, because the body may have overlapped another holder —
 * as the exception thrown when the body returned, or added to the body's own failure.
 */
public final class LockedBody {
    private LockedBody() {
    }

    /**
     * Acquires, runs {@code body}, checks the lock was held throughout, releases.
     *
     * @param locks   the manager
     * @param name    lock name
     * @param options acquisition options
     * @param onBusy  FAIL: the {@link LockNotAcquiredException} propagates; SKIP: {@code skipped} is returned
     * @param body    the work
     * @param skipped what a skipped call returns
     * @param onLost  the exception reporting a loss (see {@link #afterBody}), or null to only record it
     * @param <T>     the body's result type
     * @return what the body (or {@code skipped}) returned
     * @throws Exception what the body threw, or the loss
     */
    public static <T> T run(LockManager locks, String name, LockOptions options, OnBusy onBusy, Callable<T> body,
                            Supplier<T> skipped, Function<LockHandle, ? extends RuntimeException> onLost) throws Exception {
        LockHandle lock;
        try {
            lock = locks.acquire(name, options);
        } catch (LockNotAcquiredException busy) {
            if (onBusy == OnBusy.SKIP) {
                return skipped.get();
            }
            throw busy;
        }
        try (lock) {
            T result;
            try {
                result = body.call();
            } catch (Exception | Error e) {
                afterBody(lock, e, onLost);
                throw e;
            }
            Throwable lost = afterBody(lock, null, onLost);
            if (lost != null) {
                throw (RuntimeException) lost;
            }
            return result;
        }
    }

    /**
     * The lost-while-running check, written once: call it when the body is over, before releasing.
     * If the lock is no longer held, {@code onLost} builds the report; when the body failed, the
     * report is added to that failure (which stays the one thrown), otherwise it is returned to be thrown.
     *
     * @param handle the body's lock
     * @param thrown what the body threw, or null
     * @param onLost builds the exception reporting the loss (null from it: only recorded, nothing thrown)
     * @return what to throw: {@code thrown}, else the loss report, else null
     */
    public static Throwable afterBody(LockHandle handle, Throwable thrown,
                                      Function<LockHandle, ? extends RuntimeException> onLost) {
        if (handle.isHeld()) {
            return thrown;
        }
        RuntimeException lost = onLost.apply(handle);
        if (thrown == null) {
            return lost;
        }
        if (lost != null && lost != thrown) {
            thrown.addSuppressed(lost);
        }
        return thrown;
    }

    /**
     * {@return the plain report of a loss: the handle's own {@link LockLostException}}
     *
     * @param handle a handle that is no longer held
     */
    public static LockLostException lostException(LockHandle handle) {
        try {
            handle.checkHeld();
        } catch (LockLostException e) {
            return e;
        }
        return new LockLostException(handle.name(), "it was lost while the body ran");
    }
}
