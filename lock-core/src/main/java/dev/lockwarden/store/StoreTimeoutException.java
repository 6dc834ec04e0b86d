package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;

/**
 * A Redlock quorum was missed because nodes did not answer in time: they may be slow or briefly
 * stalled rather than down. Its suppressed exceptions are the nodes' own errors, each a
 * {@link NodeException} naming its node; one node's timeout is a {@link NodeTimeoutException}.
 * A waiting acquire retries both within its wait budget; a non-blocking one reports them at once.
 */
public class StoreTimeoutException extends LockStoreException {
    private static final long serialVersionUID = 1L;

    public StoreTimeoutException(String message) {
        super(message);
    }
}
