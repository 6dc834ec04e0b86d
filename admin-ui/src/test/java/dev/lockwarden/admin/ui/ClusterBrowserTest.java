package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisReplyException;
import dev.lockwarden.testing.RedisServerExtension;

/** {@link TopologyBrowserTest} over a Redis Cluster of three masters. */
class ClusterBrowserTest extends TopologyBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Override
    RedisServerExtension redis() {
        return REDIS;
    }

    @Override
    LockManager.Builder topology(LockManager.Builder builder) {
        return builder.cluster(REDIS.uris().toArray(String[]::new));
    }

    @Override
    void checkNodes(Map<String, String> nodesByLock) {
        // lock-core's LockInfo.nodes() names the cluster by its seeds, not the master of the slot
        nodesByLock.forEach((lock, nodes) -> assertTrue(nodes.startsWith("cluster["), lock + ": " + nodes));
        // the scan must have covered more than one master for "each lock once" to mean anything
        Set<Integer> owners = new HashSet<>();
        for (String lock : nodesByLock.keySet()) {
            for (int i = 0; i < REDIS.nodes().size(); i++) {
                try {
                    if ("1".equals(REDIS.node(i).command("EXISTS", "lock:{" + lock + "}").trim())) {
                        owners.add(i);
                    }
                } catch (RedisReplyException moved) {
                    // another master's slot
                }
            }
        }
        assertEquals(3, owners.size(), "the listed locks live on all three masters");
    }

    @Override
    int nodesOwningAKey() {
        return 1;
    }
}
