package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisNode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replica acknowledgement on a Redis Cluster with one replica per master: {@code WAIT} runs on the connection of
 * the master owning the lock's slot, so a lock is handed out only once that master's replica has it; with that
 * replica stopped (SIGSTOP) acquire fails naming the master and leaves nothing behind, extend is not confirmed,
 * the watchdog loses only that master's locks, and after a takeover the pair follows the slot (MOVED).
 */
@Timeout(120)
class ClusterReplicaAcksTest extends ClusterWithReplicas {
    private static final String NAME = "invoice:12";
    private static final String KEY = "lock:{" + NAME + "}";
    private static final LockOptions ACKED =
            LockOptions.ttl(Duration.ofSeconds(10)).replicaAcks(1, Duration.ofMillis(200));

    @Override
    protected String application() {
        return "cluster-acks";
    }

    private RedisNode replicaOf(RedisNode master) {
        return failover.replicasOf(master).get(0);
    }

    private static boolean has(RedisNode node, String key) {
        String keys = node.command("KEYS", "lock:*"); // a replica answers KEYS (EXISTS would be MOVED)
        return keys != null && keys.lines().anyMatch(key::equals);
    }

    @Test
    void theLockIsHandedOutOnceTheSlotOwnersReplicaHasIt() {
        RedisNode master = failover.masterOfKey(KEY);
        RedisNode replica = replicaOf(master);
        assertFalse(has(replica, KEY), "the control: the replica has no lock yet");
        try (LockHandle h = locks.acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
            // WAIT answered 1 on the owner's connection: its replica has the lock already, no polling
            assertTrue(has(replica, KEY), "the slot owner's replica does not have the lock acquire returned");
        }
    }

    @Test
    void withTheOwnersReplicaStoppedTheAcquisitionFailsNamingTheMaster() {
        RedisNode master = failover.masterOfKey(KEY);
        RedisNode replica = replicaOf(master);
        replica.pause();
        try {
            LockStoreException e = assertThrows(LockStoreException.class, () -> locks.acquire(NAME, ACKED));
            String m = e.getMessage();
            assertTrue(m.contains("Redis 127.0.0.1:" + master.port() + ":"), "the master is not named: " + m);
            assertTrue(m.contains("1 replica asked, 0 acknowledged within 200 ms"), m);
            assertTrue(m.contains("'" + NAME + "' was released"), m);
            assertEquals("0", master.command("EXISTS", KEY), "the lock was left on the master");
        } finally {
            replica.resume();
        }
        // the control: with the replica running again the same manager takes it
        try (LockHandle h = locks.acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
            assertEquals("1", master.command("EXISTS", KEY));
        }
    }

    @Test
    void extendWithTheOwnersReplicaStoppedIsNotConfirmed() {
        RedisNode master = failover.masterOfKey(KEY);
        RedisNode replica = replicaOf(master);
        LockHandle h = locks.acquire(NAME, ACKED.autoRefresh(false));
        assertTrue(h.extend(Duration.ofSeconds(10)), "the control: extend with the replica running");
        replica.pause();
        try {
            LockStoreException e = assertThrows(LockStoreException.class, () -> h.extend(Duration.ofSeconds(10)));
            String m = e.getMessage();
            assertTrue(m.contains("Redis 127.0.0.1:" + master.port() + ":"), m);
            assertTrue(m.contains("1 replica asked, 0 acknowledged within 200 ms"), m);
            assertTrue(m.contains("still held, but the extension is not confirmed"), m);
            assertTrue(h.isHeld(), "the lock is still ours on the master; only the extension does not count");
        } finally {
            replica.resume();
        }
        assertTrue(h.extend(Duration.ofSeconds(10)));
        h.release();
        assertEquals("0", master.command("EXISTS", KEY));
    }

    @Test
    void theWatchdogLosesOnlyTheLocksOfTheMasterWhoseReplicaStopped() throws InterruptedException {
        LockOptions shortTtl = LockOptions.ttl(Duration.ofMillis(1500)).replicaAcks(1, Duration.ofMillis(100));
        RedisNode master = failover.masterOfKey(KEY);
        String other = null;
        for (int i = 0; i < 100 && other == null; i++) {
            if (!failover.masterOfKey("lock:{job:" + i + "}").equals(master)) {
                other = "job:" + i;
            }
        }
        assertNotNull(other);
        LockHandle elsewhere = locks.acquire(other, shortTtl);
        LockHandle h = locks.acquire(NAME, shortTtl);
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        h.onLost(lost::set);
        Thread.sleep(3_000); // the control: both kept past two TTLs with the replicas running
        assertTrue(h.isHeld() && elsewhere.isHeld(), "refreshes failed with the replicas running");

        RedisNode replica = replicaOf(master);
        replica.pause();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (lost.get() == null && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertNotNull(lost.get(), "refreshes the replica never acknowledged kept the lock");
            assertFalse(h.isHeld());
            assertTrue(lost.get().reason().contains("TTL passed"), lost.get().reason());
            assertTrue(elsewhere.isHeld(), "a lock on a master with a running replica was lost too");
        } finally {
            replica.resume();
        }
        elsewhere.release();
    }

    @Test
    void afterATakeoverTheAcknowledgedAcquisitionFollowsTheSlot() {
        RedisNode old = failover.masterOfKey(KEY);
        locks.acquire(NAME, ACKED).release(); // the client's slot map points at the old master
        RedisNode replica = replicaOf(old);
        failover.takeover(replica, Duration.ofSeconds(30));
        assertNotEquals(old.port(), failover.masterOfKey(KEY).port());
        // the old master answers MOVED; the pair is sent again to the promoted replica, whose replica is the old one
        try (LockHandle h = locks.acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
            assertEquals("1", replica.command("EXISTS", KEY), "the lock is not on the new master");
            assertTrue(has(old, KEY), "the new master's replica (the old master) does not have the lock");
        }
    }
}
