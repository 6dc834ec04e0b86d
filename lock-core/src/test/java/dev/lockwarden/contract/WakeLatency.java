package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How long a blocked waiter takes to get a lock after its holder releases it (the wake-up tests' one measurement). */
public final class WakeLatency {
    private WakeLatency() {}

    /**
     * {@code holderSide} takes {@code name}, {@code waiterSide} starts waiting for it on another thread; after
     * {@code holdMs} (the waiter must still be waiting) the holder releases. Returns the ms from the release to the
     * waiter holding the lock, or {@link Long#MAX_VALUE} when it did not get it within {@code giveUpAfter}.
     */
    public static long afterRelease(
            LockManager holderSide,
            LockManager waiterSide,
            String name,
            LockOptions holding,
            LockOptions waiting,
            long holdMs,
            Duration giveUpAfter)
            throws Exception {
        LockHandle h = holderSide.acquire(name, holding);
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            LockHandle got = waiterSide.acquire(name, waiting);
            long t = System.nanoTime();
            got.release();
            return t;
        });
        Thread.sleep(holdMs);
        assertFalse(acquiredAt.isDone(), "the waiter got a held lock");
        long releasedAt = System.nanoTime();
        h.release();
        try {
            return TimeUnit.NANOSECONDS.toMillis(
                    acquiredAt.get(giveUpAfter.toMillis(), TimeUnit.MILLISECONDS) - releasedAt);
        } catch (TimeoutException e) {
            return Long.MAX_VALUE;
        }
    }
}
