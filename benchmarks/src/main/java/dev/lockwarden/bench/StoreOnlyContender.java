package dev.lockwarden.bench;

import java.util.List;
import java.util.UUID;

import dev.lockwarden.LockManager;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockStore;

/**
 * Diagnostic: Lockwarden's acquire and release scripts called straight through its store, with the
 * same holder info, skipping the engine (watchdog, events, metrics, reentrancy, handle). The gap to
 * the full API is what the engine costs; the gap to the snippet is what the scripts cost.
 */
final class StoreOnlyContender implements Contender {
    private final int port;
    private LockManager locks;
    private LockStore store;
    private LockHolder info;

    StoreOnlyContender(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return "diagnostic: Lockwarden scripts only (store, no engine)";
    }

    @Override
    public void setUp() {
        locks = LockwardenContender.build(List.of(port), "benchmarks");
        store = locks.engine().store();
        info = new LockHolder(UUID.randomUUID().toString(), "bench", dev.lockwarden.LockSource.API, "", System.currentTimeMillis());
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        Lease lease = new Lease(key, UUID.randomUUID().toString(), 30_000);
        if (!store.tryAcquire(lease, info).acquired()) {
            return false;
        }
        try {
            body.run();
        } finally {
            store.release(lease);
        }
        return true;
    }

    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) {
        throw new UnsupportedOperationException("diagnostic contender: no waiting");
    }

    @Override
    public String waitStyle() {
        return "–";
    }

    @Override
    public void tearDown() {
        if (locks != null) {
            locks.close();
        }
    }
}
