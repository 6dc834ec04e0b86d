package dev.lockwarden.bench;

import java.util.Set;
import java.util.concurrent.locks.Lock;

/**
 * One lock implementation under test. A cycle is a whole acquire + body + release.
 * Implementations are thread-safe after {@link #setUp()}.
 */
interface Contender {

    String name();

    /** Connects; throws {@link NotAvailable} if this contender cannot run here (e.g. not implemented yet). */
    void setUp() throws Exception;

    /** One non-blocking attempt: if acquired, runs {@code body} and releases; returns whether acquired. */
    boolean cycle(String key, Runnable body) throws Exception;

    default boolean cycle(String key) throws Exception {
        return cycle(key, () -> {});
    }

    /** Waits up to {@code maxWaitMillis} for the lock, runs {@code body}, releases; false if it timed out. */
    boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws Exception;

    /** A waiting cycle for clients without a waiting API: retry at once until acquired or out of time. */
    default boolean pollingCycle(String key, long maxWaitMillis, Runnable body) throws Exception {
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
        do {
            if (cycle(key, body)) {
                return true;
            }
        } while (System.nanoTime() - deadline < 0);
        return false;
    }

    /** Runs {@code body} if {@code acquired} and then unlocks; the cycle of any {@link Lock}-shaped client. */
    static boolean underLock(Lock lock, boolean acquired, Runnable body) {
        if (!acquired) {
            return false;
        }
        try {
            body.run();
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** How {@link #waitingCycle} waits, for the table (e.g. "pub/sub wake-up", "tight polling"). */
    String waitStyle();

    /** Redis commands this client sends itself outside scripts (see {@link RedisStats#clientSent}). */
    default Set<String> plainCommands() {
        return Set.of();
    }

    void tearDown();

    /** Thrown by {@link #setUp()} when the contender cannot run; the table shows the message. */
    final class NotAvailable extends RuntimeException {
        NotAvailable(String message) {
            super(message);
        }
    }
}
