package dev.lockwarden.agent;

import java.util.Map;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.Settings;

/**
 * Creates the agent's {@link LockManager} on the first locked call (so a slow or absent Redis never
 * delays application start) and closes it at JVM shutdown. After a failure, calls within the next
 * second fail fast with the same error instead of each waiting for a connect timeout.
 */
final class LazyLockManager {
    private static final long RETRY_AFTER_NANOS = 1_000_000_000L;

    private final Settings settings;
    private volatile LockManager manager;
    private RuntimeException lastFailure;
    private long lastFailureAt;

    /** {@code fileSettings} (full {@code lockwarden.*} names) win over system properties, then environment. */
    LazyLockManager(Map<String, String> fileSettings) {
        this.settings = new Settings(name -> fileSettings.getOrDefault(name, System.getProperty(name)), System.getenv());
    }

    LockManager get() {
        LockManager m = manager;
        return m != null ? m : create();
    }

    private synchronized LockManager create() {
        if (manager != null) {
            return manager;
        }
        if (lastFailure != null && System.nanoTime() - lastFailureAt < RETRY_AFTER_NANOS) {
            throw lastFailure;
        }
        try {
            LockManager m = LockManager.builder().settings(settings).build();
            Runtime.getRuntime().addShutdownHook(new Thread(m::close, "lockwarden-agent-shutdown"));
            manager = m;
            lastFailure = null;
            return m;
        } catch (RuntimeException e) {
            lastFailure = e instanceof LockStoreException ? e
                    : new IllegalStateException("lockwarden-agent: cannot create the LockManager: " + e.getMessage(), e);
            lastFailureAt = System.nanoTime();
            throw lastFailure;
        }
    }
}
