package dev.lockwarden.store;

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
}
