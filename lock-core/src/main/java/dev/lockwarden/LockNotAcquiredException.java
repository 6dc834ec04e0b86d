package dev.lockwarden;

import java.time.Duration;
import java.util.Optional;

/**
 * The lock is held by someone else and could not be taken within the wait budget ("busy").
 * Never thrown when Redis is unreachable: that is a {@link LockStoreException}.
 */
public class LockNotAcquiredException extends LockException {
    private static final long serialVersionUID = 1L;
    private final String lockName;
    private final Duration holderRemainingTtl;

    public LockNotAcquiredException(String lockName, Duration waited, Duration holderRemainingTtl) {
        super("lock '" + lockName + "' is held by another owner"
                + (holderRemainingTtl != null ? " (expires in " + holderRemainingTtl.toMillis() + " ms)" : "")
                + "; waited " + waited.toMillis() + " ms. Raise LockOptions.waitUpTo(...) to wait longer.");
        this.lockName = lockName;
        this.holderRemainingTtl = holderRemainingTtl;
    }

    /** Name of the lock that was busy. */
    public String lockName() {
        return lockName;
    }

    /** The current holder's remaining TTL as Redis reported it on the last attempt, when known. */
    public Optional<Duration> holderRemainingTtl() {
        return Optional.ofNullable(holderRemainingTtl);
    }
}
