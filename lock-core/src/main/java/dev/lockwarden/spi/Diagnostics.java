package dev.lockwarden.spi;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import dev.lockwarden.internal.ManagerAccess;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockStore;

/**
 * Measuring hooks for the benchmarks and tools of this project: what a manager's machinery does,
 * without handing out the machinery. No stability promise beyond this project's modules.
 */
public final class Diagnostics {
    private Diagnostics() {
    }

    /**
     * @param locks a manager
     * @return the pipelined refresh batches its watchdog has sent so far
     */
    public static long watchdogBatches(LockManager locks) {
        return ManagerAccess.engine(locks).watchdog().batches();
    }

    /**
     * The manager's acquire and release scripts called straight, without the engine (no watchdog,
     * events, metrics, reentrancy or handle): what the scripts cost on their own.
     *
     * @param locks a manager
     * @return calls of the manager's scripts
     */
    public static ScriptsOnly scriptsOnly(LockManager locks) {
        LockStore store = ManagerAccess.engine(locks).store();
        LockHolder holder = new LockHolder("diagnostics", "diagnostics", LockSource.API, "", System.currentTimeMillis());
        return new ScriptsOnly() {
            @Override
            public boolean acquire(String name, String token, long ttlMillis) {
                return store.tryAcquire(new Lease(name, token, ttlMillis), holder).acquired();
            }

            @Override
            public boolean release(String name, String token, long ttlMillis) {
                return store.release(new Lease(name, token, ttlMillis));
            }
        };
    }

    /** One lock's acquire and release scripts, by name and owner token. */
    public interface ScriptsOnly {
        /**
         * One acquire attempt.
         *
         * @param name      lock name
         * @param token     the owner's random token
         * @param ttlMillis TTL in ms
         * @return true if acquired, false when busy
         */
        boolean acquire(String name, String token, long ttlMillis);

        /**
         * Token-checked release.
         *
         * @param name      lock name
         * @param token     the token it was acquired with
         * @param ttlMillis its TTL in ms
         * @return true if released, false when the lock was no longer ours
         */
        boolean release(String name, String token, long ttlMillis);
    }
}
