package dev.lockwarden.failover;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.ClusterFailover;
import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisCluster;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh Cluster of three masters with one replica each per test, its failover controls and one
 * manager on it with a short timeout (dead masters must fail calls fast).
 */
abstract class ClusterWithReplicas {

    protected RedisCluster cluster;
    protected ClusterFailover failover;
    protected LockManager locks;

    /** The manager's application name (shown as the holder). */
    protected abstract String application();

    @BeforeEach
    void startCluster() {
        cluster = new RedisCluster(3, 1, RedisBinary.detect()).start();
        failover = ClusterFailover.of(cluster);
        locks = LockManager.builder()
                .cluster(cluster.seedUris().toArray(String[]::new))
                .application(application())
                .timeout(Duration.ofMillis(500))
                .shutdownHook(false)
                .build();
    }

    @AfterEach
    void stopCluster() {
        locks.close();
        cluster.close();
    }
}
