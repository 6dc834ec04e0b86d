package dev.lockwarden.bench;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Lockwarden through its public API: 30 s TTL, auto-refresh on (the defaults), fencing and holder info included. */
final class LockwardenContender implements Contender {
    private static final LockOptions DEFAULTS = LockOptions.ttl(Duration.ofSeconds(30));

    private final String name;
    private final List<Integer> ports;
    private final LockOptions options;
    private LockManager locks;

    /** One port: single node; several: Redlock. */
    LockwardenContender(String name, List<Integer> ports) {
        this(name, ports, DEFAULTS);
    }

    LockwardenContender(String name, List<Integer> ports, LockOptions options) {
        this.name = name;
        this.ports = List.copyOf(ports);
        this.options = options;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void setUp() {
        locks = build(ports, "benchmarks");
    }

    static LockManager build(List<Integer> ports, String application) {
        String[] uris = ports.stream().map(p -> "redis://127.0.0.1:" + p).toArray(String[]::new);
        LockManager.Builder b = LockManager.builder().application(application).maxConnections(Pools.SIZE);
        try {
            return (uris.length == 1 ? b.redis(uris[0]) : b.redlock(uris)).build();
        } catch (UnsupportedOperationException e) {
            throw new NotAvailable("n/a (not implemented)");
        }
    }

    LockManager locks() {
        return locks;
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        Optional<LockHandle> h = locks.tryAcquire(key, options);
        if (h.isEmpty()) {
            return false;
        }
        try (LockHandle lock = h.get()) {
            body.run();
        }
        return true;
    }

    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) {
        try (LockHandle lock = locks.acquire(key, options.waitUpTo(Duration.ofMillis(maxWaitMillis)))) {
            body.run();
            return true;
        } catch (LockNotAcquiredException busy) {
            return false;
        }
    }

    @Override
    public String waitStyle() {
        return "pub/sub wake-up";
    }

    @Override
    public void tearDown() {
        if (locks != null) {
            locks.close();
        }
    }
}
