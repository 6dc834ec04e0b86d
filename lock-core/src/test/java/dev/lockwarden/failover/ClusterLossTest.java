package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.Replication;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Cluster master dies before its replica has a lock (the replica's replication link was cut, and
 * kept from reconnecting by a wrong {@code masterauth}, while the lock was written); the replica is
 * promoted without it. The holder, with a 30 s TTL whose next
 * scheduled refresh is 10 s away, is told {@code LOST} within a second of the promotion: the manager
 * re-checks its locks on the new slot owner as soon as the cluster's topology changed. The control: a
 * second client gets the same lock from the new master (the double grant is real).
 */
@Timeout(120)
class ClusterLossTest extends ClusterWithReplicas {
    private static final String NAME = "invoice:lost";
    private static final String KEY = "lock:{" + NAME + "}";

    @Override
    protected String application() {
        return "cluster-holder";
    }

    private static void awaitLinkDown(RedisNode replica) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"down".equals(Replication.info(replica).get("master_link_status"))) {
            assertTrue(System.nanoTime() < deadline, replica + " still replicates");
            Thread.sleep(20);
        }
    }

    @Test
    void aLockThePromotedReplicaLacksIsReportedLostWithinASecondOfThePromotion() throws Exception {
        RedisNode master = failover.masterOfKey(KEY);
        List<RedisNode> replicas = failover.replicasOf(master);
        RedisNode replica = replicas.get(0);
        replica.command("CONFIG", "SET", "masterauth", "not-the-password");
        replica.command("CLIENT", "KILL", "TYPE", "master");
        awaitLinkDown(replica);
        long acquired = System.nanoTime();
        LockHandle held = locks.acquire(NAME, LockOptions.ttl(Duration.ofSeconds(30)));
        LossClock clock = new LossClock(held, acquired);

        long killed = System.nanoTime();
        master.kill();
        replica.command("CONFIG", "SET", "masterauth", "");
        RedisNode promoted = failover.awaitPromotion(replicas, Duration.ofSeconds(30));
        long promotion = System.nanoTime();
        assertFalse("1".equals(promoted.command("EXISTS", KEY)), "the control: the promoted replica missed the lock");

        LockLostEvent lost = clock.assertToldSoonAfter("cluster", killed, promotion);
        assertTrue(lost.reason().contains("no longer has our token"), lost.reason());
        assertFalse(held.isHeld());

        try (LockManager other = LockManager.builder()
                        .cluster(cluster.seedUris().toArray(String[]::new))
                        .application("cluster-second")
                        .timeout(Duration.ofMillis(500))
                        .shutdownHook(false)
                        .build();
                LockHandle second = other.acquire(NAME, LockOptions.ttl(Duration.ofSeconds(30)))) {
            assertTrue(second.isHeld(), "the control: the second grant after the promotion");
        }
    }
}
