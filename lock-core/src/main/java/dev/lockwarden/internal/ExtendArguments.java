package dev.lockwarden.internal;

import dev.lockwarden.LockOptions;
import java.time.Duration;

/** The checks of {@code LockHandle.extend}'s arguments, with messages that name the lock and the fix. */
final class ExtendArguments {
    private ExtendArguments() {}

    /** {@code ttl} in ms, if it is between 1 ms and {@link LockOptions#MAX_TTL}. */
    static long ttlMillis(String lock, Duration ttl) {
        if (ttl == null || ttl.toMillis() <= 0 || ttl.compareTo(LockOptions.MAX_TTL) > 0) {
            throw new IllegalArgumentException("extend(" + ttl + ") of lock '" + lock
                    + "': the ttl must be between 1 ms and " + LockOptions.MAX_TTL + ", e.g. Duration.ofSeconds(30)");
        }
        return ttl.toMillis();
    }

    /** Checks {@code ttl}, and that {@code holdAtLeast} is between zero and it. */
    static void checkHold(String lock, Duration ttl, Duration holdAtLeast) {
        ttlMillis(lock, ttl);
        if (holdAtLeast == null || holdAtLeast.isNegative() || holdAtLeast.compareTo(ttl) > 0) {
            throw new IllegalArgumentException("extend(" + ttl + ", " + holdAtLeast + ") of lock '" + lock
                    + "': holdAtLeast must be between zero and the ttl");
        }
    }
}
