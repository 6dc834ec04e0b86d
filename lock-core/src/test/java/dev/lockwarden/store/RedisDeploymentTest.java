package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockStoreException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quorum rule, written once for the store, the reader, the inspector and force-release. */
class RedisDeploymentTest {
    @Test
    void quorumIsAMajority() {
        assertEquals(1, RedisDeployment.quorumOf(1));
        assertEquals(2, RedisDeployment.quorumOf(3));
        assertEquals(3, RedisDeployment.quorumOf(5));
    }

    @Test
    void oneFailedNodeOfOneIsTooMany() {
        RedisDeployment one = deployment(1, StoreFactory.Topology.SINGLE);
        assertFalse(one.tooManyFailures(0));
        assertTrue(one.tooManyFailures(1));
        LockStoreException e =
                assertThrows(LockStoreException.class, () -> one.requireQuorum("read locks", List.of("down")));
        assertEquals("cannot read locks: 1 of 1 Redis nodes failed: down", e.getMessage());
    }

    @Test
    void aMinorityOfFiveMayFail() {
        RedisDeployment five = deployment(5, StoreFactory.Topology.REDLOCK);
        try {
            assertFalse(five.tooManyFailures(2));
            assertTrue(five.tooManyFailures(3));
            five.requireQuorum("read locks", List.of("a", "b")); // does not throw
            assertTrue(five.describe().startsWith("redlock[node-0, "), five.describe());
        } finally {
            five.close();
        }
    }

    /** Clients to nowhere: nothing here connects. */
    private static RedisDeployment deployment(int n, StoreFactory.Topology t) {
        KeySpace keys = new KeySpace("lock:");
        List<RedisNodeClient> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new RedisNodeClient(
                    redis.clients.jedis.RedisClient.builder()
                            .hostAndPort("127.0.0.1", 1)
                            .build(),
                    "node-" + i,
                    keys,
                    60_000,
                    null,
                    null));
        }
        return new RedisDeployment(t, nodes, keys, 1);
    }
}
