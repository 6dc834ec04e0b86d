package dev.lockwarden.agent;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.Settings;
import java.util.Map;
import java.util.function.Function;

/**
 * Creates the agent's {@link LockManager} on the first locked call (so a slow or absent Redis never delays
 * application start); {@link AgentShutdown} closes it after the shutdown drain. After a failure, calls within the
 * next second fail fast with the same error instead of each waiting for a connect timeout.
 */
final class LazyLockManager {
    private static final long RETRY_AFTER_NANOS = 1_000_000_000L;

    private final Settings settings;
    private volatile LockManager manager;
    private RuntimeException lastFailure;
    private long lastFailureAt;
    private boolean closed;

    /** {@code fileSettings} (full {@code lockwarden.*} names) win over system properties, then environment. */
    LazyLockManager(Map<String, String> fileSettings) {
        // an anonymous class, not a lambda: created in premain
        this.settings = new Settings(
                new Function<String, String>() {
                    @Override
                    public String apply(String name) {
                        return fileSettings.getOrDefault(name, System.getProperty(name));
                    }
                },
                System.getenv());
    }

    LockManager get() {
        LockManager m = manager;
        return m != null ? m : create();
    }

    private synchronized LockManager create() {
        if (manager != null) {
            return manager;
        }
        if (closed) {
            throw new IllegalStateException("lockwarden-agent: the lock client is closed (JVM shutting down)");
        }
        if (lastFailure != null && System.nanoTime() - lastFailureAt < RETRY_AFTER_NANOS) {
            throw lastFailure;
        }
        try {
            // no core shutdown hook: AgentShutdown drains the running calls first, then closes this manager
            LockManager m =
                    LockManager.builder().settings(settings).shutdownHook(false).build();
            manager = m;
            lastFailure = null;
            return m;
        } catch (RuntimeException e) {
            lastFailure = e instanceof LockStoreException
                    ? e
                    : new IllegalStateException(
                            "lockwarden-agent: cannot create the LockManager: " + e.getMessage(), e);
            lastFailureAt = System.nanoTime();
            throw lastFailure;
        }
    }

    /** Closes the client if it was created (held locks are released). */
    synchronized void close() {
        closed = true;
        if (manager != null) {
            manager.close();
        }
    }
}
