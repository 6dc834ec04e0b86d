package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.Replication;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Cluster failover of a replica that has every write keeps every lock: the cluster client
 * follows the slots to the promoted replicas and the watchdog keeps refreshing there.
 */
@Timeout(120)
class ClusterTakeoverFailoverTest extends ClusterWithReplicas {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final int LOCKS = 20;

    @Override
    protected String application() {
        return "takeover";
    }

    @Test
    void aTakeoverOfEveryMasterKeepsEveryLock() throws Exception {
        Map<String, LockHandle> handles = new LinkedHashMap<>();
        Map<String, LockLostEvent> lost = new ConcurrentHashMap<>();
        for (int i = 0; i < LOCKS; i++) {
            String name = "job:" + i;
            LockHandle h = locks.acquire(name, LockOptions.ttl(TTL));
            h.onLost(e -> lost.put(name, e));
            handles.put(name, h);
        }
        for (RedisNode master : List.copyOf(cluster.nodes().subList(0, cluster.masterCount()))) {
            RedisNode replica = failover.replicasOf(master).get(0);
            // a takeover does not wait for replication: the replica must have every lock first (the premise)
            Replication.awaitCaughtUp(master, replica, Duration.ofSeconds(10));
            long t0 = System.nanoTime();
            failover.takeover(replica, Duration.ofSeconds(30));
            long t1 = System.nanoTime();
            cluster.awaitClusterOk(Duration.ofSeconds(30));
            System.out.printf(
                    "takeover %d ms, converged %d ms, lost so far %d%n",
                    (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000, lost.size());
        }
        Thread.sleep(2 * TTL.toMillis()); // the locks live on only if refreshed on the new masters
        assertEquals(Map.of(), lost);
        for (Map.Entry<String, LockHandle> e : handles.entrySet()) {
            String key = "lock:{" + e.getKey() + "}";
            RedisNode owner = failover.masterOfKey(key);
            assertTrue(
                    owner.port() != 0 && cluster.nodes().indexOf(owner) >= cluster.masterCount(),
                    key + " is served by " + owner + ", not by a promoted replica");
            assertTrue(e.getValue().isHeld(), e.getKey());
            assertEquals("1", owner.command("EXISTS", key), key + " is gone from " + owner);
            e.getValue().release();
            assertEquals("0", owner.command("EXISTS", key), key + " was not released on " + owner);
        }
    }
}
