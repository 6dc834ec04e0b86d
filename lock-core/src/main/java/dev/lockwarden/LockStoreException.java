package dev.lockwarden;

/**
 * Redis could not be reached, answered with an error, or (Redlock) a quorum was impossible.
 * This is never reported as "busy": the caller cannot know who holds the lock.
 */
public class LockStoreException extends LockException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed and how to fix it */
    public LockStoreException(String message) {
        super(message);
    }

    /**
     * @param message what failed and how to fix it
     * @param cause   the underlying failure
     */
    public LockStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
