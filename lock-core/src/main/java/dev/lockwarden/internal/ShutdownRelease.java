package dev.lockwarden.internal;

import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The release of every lock still held when a manager closes: one batch per node, on its own thread,
 * waited for at most a bound (the shutdown hook must not hang the JVM's exit on a dead Redis). Locks
 * not confirmed released expire by themselves within their TTL.
 */
final class ShutdownRelease {
    private static final System.Logger LOG = System.getLogger(ShutdownRelease.class.getName());

    private ShutdownRelease() {}

    /** Releases {@code batch} (already taken off the watchdog) through {@code store}, waiting at most {@code boundMillis}. */
    static void run(LockStore store, List<DefaultLockHandle> batch, long boundMillis) {
        List<Lease> leases = new ArrayList<>(batch.size());
        long[] keep = new long[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            leases.add(batch.get(i).lease());
            keep[i] = batch.get(i).keepMillisOnRelease();
        }
        Thread releaser = new Thread(
                () -> {
                    try {
                        store.releaseAll(leases, keep);
                    } catch (RuntimeException e) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "releasing " + leases.size() + " lock(s) at shutdown failed; they expire"
                                        + " by themselves within their TTL: " + e.getMessage());
                    }
                },
                "lockwarden-release-all");
        releaser.setDaemon(true);
        releaser.start();
        try {
            releaser.join(boundMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (releaser.isAlive()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "releasing " + leases.size() + " lock(s) took longer than " + boundMillis
                            + " ms; not waiting any longer: they expire by themselves within their TTL");
        }
    }
}
