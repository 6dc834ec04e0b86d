package dev.lockwarden.bench;

import dev.lockwarden.LockSource;
import dev.lockwarden.config.RedisUri;
import dev.lockwarden.store.ConnectionSettings;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.StoreFactory;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Diagnostic: Lockwarden's acquire and release scripts called straight through its store, with the
 * same holder info, skipping the engine (watchdog, events, metrics, reentrancy, handle). The gap to
 * the full API is what the engine costs; the gap to the snippet is what the scripts cost. The store
 * is built from lock-core's classes as LockManager builds it (the benchmarks run on the class path).
 */
final class StoreOnlyContender implements Contender {
    private final int port;
    private LockStore store;
    private final LockHolder holder =
            new LockHolder("benchmarks", "benchmarks", LockSource.API, "", System.currentTimeMillis());

    StoreOnlyContender(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return "diagnostic: Lockwarden scripts only (store, no engine)";
    }

    @Override
    public void setUp() {
        // LockManager's defaults: 2 s timeout, 7 days of fence retention; the benchmark's pool size
        ConnectionSettings conn = new ConnectionSettings(Duration.ofSeconds(2), Pools.SIZE);
        RedisDeployment redis = StoreFactory.create(
                StoreFactory.Topology.SINGLE,
                List.of(RedisUri.parse("redis://127.0.0.1:" + port)),
                new KeySpace("lock:"),
                conn,
                Duration.ofDays(7).toMillis(),
                true);
        store = StoreFactory.store(redis, conn);
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        String token = UUID.randomUUID().toString();
        Lease lease = new Lease(key, token, 30_000);
        if (!store.tryAcquire(lease, holder).acquired()) {
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
        if (store != null) {
            store.close();
        }
    }
}
