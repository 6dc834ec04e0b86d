package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link TopologyBrowserTest} over Redlock: five independent redis-server processes. */
class RedlockBrowserTest extends TopologyBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    @Override
    RedisServerExtension redis() {
        return REDIS;
    }

    @Override
    LockManager.Builder topology(LockManager.Builder builder) {
        return builder.redlock(REDIS.uris().toArray(String[]::new));
    }

    @Override
    void checkNodes(Map<String, String> nodesByLock) {
        nodesByLock.forEach(
                (lock, nodes) -> assertTrue(nodes.split(", ").length >= 3, lock + " on a majority of 5: " + nodes));
    }

    @Override
    int nodesOwningAKey() {
        return 5;
    }
}
