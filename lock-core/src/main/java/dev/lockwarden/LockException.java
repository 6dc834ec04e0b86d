package dev.lockwarden;

/** Base of every exception Lockwarden throws; unchecked so lock code stays readable. */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LockException(String message) {
        super(message);
    }

    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
