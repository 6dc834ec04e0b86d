package dev.lockwarden.cdi;

import dev.lockwarden.LockNotAcquiredException;
import jakarta.ejb.ApplicationException;
import java.time.Duration;

/**
 * {@link LockNotAcquiredException} thrown by a {@code @Locked(onBusy = FAIL)} method: the same
 * lock name and holder TTL, with a message naming the method and the annotation's fix.
 *
 * <p>{@code @ApplicationException}: an EJB container passes it to the caller unwrapped and keeps
 * the bean instance. {@code rollback = false}: the method did not run, so the caller's transaction
 * decides for itself. Without the EJB API at run time the annotation is ignored.
 */
@ApplicationException(rollback = false)
final class LockedBusyException extends LockNotAcquiredException {
    private static final long serialVersionUID = 1L;
    private final String message;

    LockedBusyException(String method, Duration waited, LockNotAcquiredException busy) {
        super(busy.lockName(), waited, busy.holderRemainingTtl().orElse(null));
        initCause(busy);
        this.message = "@Locked on " + method + ": lock '" + busy.lockName() + "' is held by another owner"
                + busy.holderRemainingTtl()
                        .map(ttl -> " (expires in " + ttl.toMillis() + " ms)")
                        .orElse("")
                + "; waited " + waited.toMillis() + " ms. Raise @Locked(waitUpTo = ...) to wait longer,"
                + " or use onBusy = OnBusy.SKIP to skip the call";
    }

    @Override
    public String getMessage() {
        return message;
    }
}
