package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class RedisClusterReplicaTest {

    private static final Duration FAILOVER = Duration.ofSeconds(30);

    private RedisCluster cluster;
    private ClusterFailover failover;

    @BeforeEach
    void start() {
        cluster = new RedisCluster(3, 1, RedisBinary.detect()).start();
        failover = ClusterFailover.of(cluster);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void everyMasterHasOneReplicaThatReceivesItsWrites() {
        assertEquals(6, cluster.nodes().size());
        for (int i = 0; i < 3; i++) {
            RedisNode master = cluster.node(i);
            assertEquals(List.of(cluster.node(3 + i)), failover.replicasOf(master));
            String key = "k" + i;
            RedisNode owner = failover.masterOfKey(key);
            owner.command("SET", key, "v");
            RedisNode replica = failover.replicasOf(owner).get(0);
            Replication.awaitCaughtUp(owner, replica, Duration.ofSeconds(10));
            assertEquals("1", replica.command("DBSIZE")); // a replica answers keyed reads with MOVED
        }
        assertEquals(cluster.node(2), failover.masterOf(15495)); // "a": the last slots
    }

    @Test
    void takeoverMakesTheReplicaServeTheSlotsAndTheOldMasterItsReplica() {
        RedisNode old = failover.masterOfKey("a");
        RedisNode replica = failover.replicasOf(old).get(0);
        old.command("SET", "a", "1");
        Replication.awaitCaughtUp(old, replica, Duration.ofSeconds(10));
        long start = System.nanoTime();
        failover.takeover(replica, FAILOVER);
        System.out.printf("cluster takeover: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertEquals(replica, failover.masterOfKey("a"));
        assertEquals("1", replica.command("GET", "a"));
        cluster.awaitClusterOk(FAILOVER);
        assertEquals(List.of(old), failover.replicasOf(replica));
    }

    @Test
    void aKilledMasterIsReplacedByItsReplicaAndRejoinsAsOne() {
        RedisNode old = failover.masterOfKey("a");
        List<RedisNode> replicas = failover.replicasOf(old);
        long start = System.nanoTime();
        old.kill();
        RedisNode promoted = failover.awaitPromotion(replicas, FAILOVER);
        System.out.printf("cluster promotion after SIGKILL: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertNotEquals(old, promoted);
        assertEquals(promoted, failover.masterOfKey("a"));
        old.restart(); // nodes.conf kept: it rejoins as itself and learns it lost its slots
        cluster.awaitClusterOk(FAILOVER);
        assertTrue(
                failover.replicasOf(promoted).contains(old),
                failover.replicasOf(promoted).toString());
    }
}
