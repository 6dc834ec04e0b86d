package dev.lockwarden;

import java.time.Duration;
import java.util.Optional;

/**
 * The lock is held by someone else and could not be taken within the wait budget ("busy").
 * Never thrown when Redis is unreachable: that is a {@link LockStoreException}.
 */
public class LockNotAcquiredException extends LockException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;
    /** Name of the lock. */
    private final String lockName;
    /** The holder's remaining TTL, or null when unknown. */
    private final Duration holderRemainingTtl;

    /**
     * @param lockName           the busy lock
     * @param waited             how long the caller waited
     * @param holderRemainingTtl the holder's remaining TTL, or null when unknown
     */
    public LockNotAcquiredException(String lockName, Duration waited, Duration holderRemainingTtl) {
        super("lock '" + lockName + "' is held by another owner"
                + (holderRemainingTtl != null ? " (expires in " + holderRemainingTtl.toMillis() + " ms)" : "")
                + "; waited " + waited.toMillis() + " ms. Raise LockOptions.waitUpTo(...) to wait longer.");
        this.lockName = lockName;
        this.holderRemainingTtl = holderRemainingTtl;
    }

    /** {@return the name of the lock that was busy} */
    public String lockName() {
        return lockName;
    }

    /** {@return the current holder's remaining TTL as Redis reported it on the last attempt, when known} */
    public Optional<Duration> holderRemainingTtl() {
        return Optional.ofNullable(holderRemainingTtl);
    }
}
