package dev.lockwarden;

/**
 * A handle no longer owns its lock: it expired, was force-released by an operator, or its
 * refresh failed. Work that must not run twice has to stop when this is thrown.
 */
public class LockLostException extends LockException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;
    /** Name of the lock. */
    private final String lockName;

    /**
     * @param lockName the lost lock
     * @param reason   why it is no longer held
     */
    public LockLostException(String lockName, String reason) {
        super("lock '" + lockName + "' is no longer held: " + reason);
        this.lockName = lockName;
    }

    /** {@return the name of the lost lock} */
    public String lockName() {
        return lockName;
    }
}
