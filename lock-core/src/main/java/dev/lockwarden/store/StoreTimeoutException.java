package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;

/**
 * Redis (or a Redlock quorum) did not answer in time: it may be slow or briefly stalled rather than
 * down. A waiting acquire retries this within its wait budget; a non-blocking one reports it at once.
 */
public class StoreTimeoutException extends LockStoreException {
    private static final long serialVersionUID = 1L;

    public StoreTimeoutException(String message) {
        super(message);
    }
}
