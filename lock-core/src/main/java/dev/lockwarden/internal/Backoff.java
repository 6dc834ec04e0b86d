package dev.lockwarden.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The fallback sleep of a waiter between attempts. Waiters are normally woken by the release
 * message; this sleep only bounds how long a lost message can delay them. It grows from a quarter
 * of the retry interval to the full interval, is jittered (×0.75–1.0) so waiters in many JVMs do not
 * retry in step, and never exceeds the holder's remaining TTL (the lock is free then) or the wait
 * budget left.
 */
public final class Backoff {
    private Backoff() {}

    /**
     * @param attempt        0 for the first sleep
     * @param holderTtlMillis holder's remaining TTL from the last attempt (-1 if unknown, -2 / 0 if none)
     * @param leftMillis     wait budget left
     * @param retryMillis    the retry interval (upper bound)
     */
    public static long sleepMillis(int attempt, long holderTtlMillis, long leftMillis, long retryMillis) {
        long base = attempt >= 2 ? retryMillis : Math.max(1, retryMillis >> (2 - attempt));
        long sleep = Math.max(
                1, (long) (base * (0.75 + 0.25 * ThreadLocalRandom.current().nextDouble())));
        if (holderTtlMillis >= 0) {
            sleep = Math.min(sleep, holderTtlMillis + 1);
        }
        return Math.max(1, Math.min(sleep, leftMillis));
    }
}
