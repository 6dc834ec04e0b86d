package dev.lockwarden;

/**
 * No connection of this JVM's own pool to Redis became free within the caller's wait budget (at
 * least the Redis timeout). Neither "busy" (nothing is known about the lock) nor a
 * {@link LockStoreException} (Redis answers; this JVM has more concurrent callers than connections):
 * raise {@code LockManager.Builder.maxConnections(...)} or {@code LockOptions.waitUpTo(...)}.
 */
public class LocalPoolBusyException extends LockException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed and how to fix it */
    public LocalPoolBusyException(String message) {
        super(message);
    }
}
