package dev.lockwarden.failover;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Lock managers pointed at one Redis node each or at sentinels, closed together; short timeouts for dead masters. */
final class Clients implements AutoCloseable {

    private final List<LockManager> managers = new ArrayList<>();

    /** A manager for {@code application} on {@code node} alone. */
    LockManager on(String application, RedisNode node) {
        LockManager m = LockManager.builder()
                .redis(node.uri())
                .application(application)
                .timeout(Duration.ofMillis(500))
                .shutdownHook(false)
                .build();
        managers.add(m);
        return m;
    }

    /** A manager for {@code application} on the group's sentinels ({@code .sentinel(MASTER_NAME, ...)}). */
    LockManager onSentinel(String application, RedisSentinelGroup group) {
        LockManager m = LockManager.builder()
                .sentinel(RedisSentinelGroup.MASTER_NAME, group.sentinelUris().toArray(String[]::new))
                .application(application)
                .timeout(Duration.ofMillis(500))
                .shutdownHook(false)
                .build();
        managers.add(m);
        return m;
    }

    @Override
    public void close() {
        managers.forEach(LockManager::close);
        managers.clear();
    }
}
