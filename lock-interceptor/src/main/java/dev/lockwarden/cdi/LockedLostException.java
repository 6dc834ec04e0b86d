package dev.lockwarden.cdi;

import dev.lockwarden.LockLostException;
import jakarta.ejb.ApplicationException;

/**
 * {@link LockLostException} thrown by the interceptor. {@code @ApplicationException} makes an EJB
 * container pass it to the caller unwrapped (not as {@code EJBException}), roll the transaction
 * back and keep the bean instance; without the EJB API at run time the annotation is ignored.
 */
@ApplicationException(rollback = true)
final class LockedLostException extends LockLostException {
    private static final long serialVersionUID = 1L;

    LockedLostException(String lockName, String reason) {
        super(lockName, reason);
    }
}
