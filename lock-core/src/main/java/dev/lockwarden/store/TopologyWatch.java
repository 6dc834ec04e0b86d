package dev.lockwarden.store;

import java.util.List;
import java.util.function.Consumer;

/**
 * Hears that a deployment's masters changed (a failover), so the lock manager re-checks every lock it
 * holds at once instead of at its next refresh: {@link SentinelWatch} for Sentinel, {@link ClusterWatch}
 * for a Redis Cluster.
 */
interface TopologyWatch extends AutoCloseable {

    /** Calls {@code listener} with a short description after each change; it must not block. */
    void onSwitch(Consumer<String> listener);

    /** What the watch knows of the current masters, for {@link RedisDeployment#describe()}; may be empty. */
    String current();

    @Override
    void close();

    /**
     * Tells every listener about {@code what}, then logs it: after the listeners, because a JVM's first
     * log line can take a second (logging set-up) and the re-check must not wait.
     */
    static void tell(List<Consumer<String>> listeners, String what, System.Logger log) {
        for (Consumer<String> l : listeners) {
            try {
                l.accept(what);
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.WARNING, "a failover listener failed", e);
            }
        }
        log.log(System.Logger.Level.INFO, what + ": re-checking every lock held");
    }
}
