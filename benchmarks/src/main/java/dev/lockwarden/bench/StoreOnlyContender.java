package dev.lockwarden.bench;

import java.util.List;
import java.util.UUID;

import dev.lockwarden.LockManager;
import dev.lockwarden.spi.Diagnostics;

/**
 * Diagnostic: Lockwarden's acquire and release scripts called straight through its store, with the
 * same holder info, skipping the engine (watchdog, events, metrics, reentrancy, handle). The gap to
 * the full API is what the engine costs; the gap to the snippet is what the scripts cost.
 */
final class StoreOnlyContender implements Contender {
    private final int port;
    private LockManager locks;
    private Diagnostics.ScriptsOnly scripts;

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
        scripts = Diagnostics.scriptsOnly(locks);
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        String token = UUID.randomUUID().toString();
        if (!scripts.acquire(key, token, 30_000)) {
            return false;
        }
        try {
            body.run();
        } finally {
            scripts.release(key, token, 30_000);
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
