package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster client follows a failover for new acquisitions: after a forced takeover and after a
 * killed master is replaced, locks whose slots moved are acquired on the promoted replica, with
 * fences above the ones issued before.
 */
@Timeout(120)
class ClusterAcquireFailoverTest extends ClusterWithReplicas {

    private static final LockOptions OPTS =
            LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(10));
    private static final Duration FAILOVER = Duration.ofSeconds(30);

    @Override
    protected String application() {
        return "acquire";
    }

    private long acquireAndRelease(String name) {
        try (LockHandle h = locks.acquire(name, OPTS)) {
            return h.fencingToken();
        }
    }

    @Test
    void locksAreAcquiredOnTheReplicaAfterATakeover() {
        String name = "order:7";
        RedisNode old = failover.masterOfKey("lock:{" + name + "}");
        long before = acquireAndRelease(name);
        RedisNode replica = failover.replicasOf(old).get(0);
        failover.takeover(replica, FAILOVER);
        try (LockHandle h = locks.acquire(name, OPTS)) {
            assertEquals("1", replica.command("EXISTS", "lock:{" + name + "}"), "the lock is not on the new master");
            assertTrue(h.fencingToken() > before, h.fencingToken() + " is not above " + before);
        }
    }

    @Test
    void locksAreAcquiredOnTheReplicaThatReplacedAKilledMaster() {
        String name = "order:8";
        RedisNode old = failover.masterOfKey("lock:{" + name + "}");
        long before = acquireAndRelease(name);
        List<RedisNode> replicas = failover.replicasOf(old);
        old.kill();
        RedisNode promoted = failover.awaitPromotion(replicas, FAILOVER);
        try (LockHandle h = locks.acquire(name, OPTS)) {
            assertEquals("1", promoted.command("EXISTS", "lock:{" + name + "}"), "the lock is not on the new master");
            assertTrue(h.fencingToken() > before, h.fencingToken() + " is not above " + before);
        }
    }
}
