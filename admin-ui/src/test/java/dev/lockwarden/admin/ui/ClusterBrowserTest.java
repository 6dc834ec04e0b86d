package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

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
        // the Nodes cell names the master that owns the lock's slot, computed here without Jedis:
        // CLUSTER KEYSLOT, then the master whose slot ranges in CLUSTER NODES cover it
        Set<Integer> owners = new HashSet<>();
        for (Map.Entry<String, String> e : nodesByLock.entrySet()) {
            String key = "lock:{" + e.getKey() + "}";
            int slot = Integer.parseInt(
                    REDIS.node(0).command("CLUSTER", "KEYSLOT", key).trim());
            int owner = masterOfSlot(slot);
            assertEquals(REDIS.node(owner).uri(), e.getValue(), "Nodes of " + e.getKey() + " (slot " + slot + ")");
            assertEquals("1", REDIS.node(owner).command("EXISTS", key).trim(), "the master named holds " + key);
            owners.add(owner);
        }
        // the scan must have covered more than one master for "each lock once" to mean anything
        assertEquals(3, owners.size(), "the listed locks live on all three masters");
    }

    /** Index in REDIS.nodes() of the master serving {@code slot}, from CLUSTER NODES. */
    private static int masterOfSlot(int slot) {
        for (String line : REDIS.node(0).command("CLUSTER", "NODES").split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 9 || !f[2].contains("master")) {
                continue;
            }
            int port = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1, f[1].indexOf('@')));
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue; // a slot being migrated or imported
                }
                String[] range = f[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = Integer.parseInt(range[range.length - 1]);
                if (slot >= from && slot <= to) {
                    for (int n = 0; n < REDIS.nodes().size(); n++) {
                        if (REDIS.node(n).port() == port) {
                            return n;
                        }
                    }
                }
            }
        }
        throw new AssertionError("no master of slot " + slot + " in CLUSTER NODES");
    }

    @Override
    int nodesOwningAKey() {
        return 1;
    }
}
