package dev.lockwarden;

/** Base of every exception Lockwarden throws; unchecked so lock code stays readable. */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed and how to fix it */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what failed and how to fix it
     * @param cause   the underlying failure
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
