package dev.lockwarden.spi;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import java.util.function.Function;

/**
 * The rule every entry point shares when a body ran under a lock ({@code LockManager.withLock},
 * {@code @Locked}, the agent): a lock lost while the body ran is reported after it, because the body
 * may have overlapped another holder — as the exception thrown when the body returned, or added to
 * the body's own failure.
 */
public final class LockedBody {
    private LockedBody() {}

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
    public static Throwable afterBody(
            LockHandle handle, Throwable thrown, Function<LockHandle, ? extends RuntimeException> onLost) {
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
