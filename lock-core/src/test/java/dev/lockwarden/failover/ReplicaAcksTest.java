package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replica acknowledgement on a master with two replicas behind relays: a lock is handed out only once a
 * replica has it; held back replication makes the acquisition fail and leaves nothing behind, so a failover
 * cannot grant the lock twice (the contrast: {@link SentinelFailoverTest}, without acknowledgement).
 */
@Timeout(120)
class ReplicaAcksTest {
    private static final String NAME = "payment:43";
    private static final String KEY = "lock:{" + NAME + "}";
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final LockOptions PLAIN = LockOptions.ttl(TTL);
    private static final LockOptions ACKED = PLAIN.replicaAcks(1, Duration.ofMillis(200));

    private final List<LockManager> managers = new ArrayList<>();
    private RedisSentinelGroup group;

    @BeforeEach
    void start() {
        group = new RedisSentinelGroup(true).start();
    }

    @AfterEach
    void stop() {
        managers.forEach(LockManager::close);
        group.close();
    }

    private LockManager on(String application, RedisNode node) {
        LockManager m = LockManager.builder()
                .redis(node.uri())
                .application(application)
                .timeout(Duration.ofMillis(1000))
                .shutdownHook(false)
                .build();
        managers.add(m);
        return m;
    }

    private List<RedisNode> replicas(RedisNode master) {
        return group.dataNodes().stream().filter(n -> n != master).toList();
    }

    @Test
    void withReplicationFlowingTheLockIsHandedOutOnceAReplicaHasIt() {
        RedisNode master = group.master();
        try (LockHandle h = on("acked", master).acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
            // WAIT answered 1: at least one replica has the lock already, no polling needed
            long onReplicas = replicas(master).stream()
                    .filter(r -> "1".equals(r.command("EXISTS", KEY)))
                    .count();
            assertTrue(onReplicas >= 1, "no replica has the lock the acquire returned");
        }
    }

    @Test
    void aWaiterWithAcknowledgementGetsTheLockOnRelease() throws Exception {
        RedisNode master = group.master();
        LockManager holder = on("holder", master);
        LockManager waiter = on("waiter", master);
        LockHandle held = holder.acquire(NAME, ACKED);
        java.util.concurrent.CompletableFuture<Long> next = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (LockHandle h = waiter.acquire(NAME, ACKED.waitUpTo(Duration.ofSeconds(20)))) {
                return h.fencingToken();
            }
        });
        Thread.sleep(300); // the waiter is queued (if not yet, it takes the free lock: the assertions still hold)
        assertFalse(next.isDone(), "the waiter got a lock that was held");
        held.release();
        assertTrue(next.get(30, java.util.concurrent.TimeUnit.SECONDS) > held.fencingToken());
    }

    @Test
    void aScriptTheServerLostIsSentAgainOnTheSameConnection() {
        RedisNode master = group.master();
        LockManager acked = on("acked", master);
        acked.acquire("warm", ACKED).release(); // scripts cached
        master.command("SCRIPT", "FLUSH");
        master.command("CONFIG", "RESETSTAT");
        try (LockHandle h = acked.acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
            assertTrue(h.extend(TTL));
            // the control, before the release: acquire and extend met NOSCRIPT and ran as EVAL
            String stats = master.command("INFO", "commandstats");
            assertTrue(stats.contains("cmdstat_eval:calls=2,"), stats);
        }
    }

    @Test
    void onSentinelTheErrorNamesTheMasterTheSentinelsName() {
        RedisNode master = group.master();
        try (Clients clients = new Clients()) {
            LockManager acked = clients.onSentinel("acked-sentinel", group);
            acked.acquire("warm", PLAIN).release();
            group.holdReplication();
            LockStoreException e = assertThrows(LockStoreException.class, () -> acked.acquire(NAME, ACKED));
            String m = e.getMessage();
            assertTrue(m.contains("(master 127.0.0.1:" + master.port() + ")"), "the master is not named: " + m);
            assertTrue(m.contains("0 acknowledged"), m);
        }
    }

    @Test
    void withReplicationHeldTheAcquisitionFailsAndReleasesTheLock() {
        RedisNode master = group.master();
        LockManager acked = on("acked", master);
        group.holdReplication();
        LockStoreException e = assertThrows(LockStoreException.class, () -> acked.acquire(NAME, ACKED));
        String m = e.getMessage();
        assertTrue(m.contains(master.uri()), "the master is not named: " + m);
        assertTrue(m.contains("1 replica asked, 0 acknowledged within 200 ms"), m);
        assertTrue(m.contains("'" + NAME + "' was released"), m);
        assertEquals("0", master.command("EXISTS", KEY), "the lock was left on the master");
        // nothing is held: another client gets the lock at once (acknowledged or not)
        Optional<LockHandle> second = on("plain", master).tryAcquire(NAME, PLAIN);
        assertTrue(second.isPresent(), "the failed acquisition still holds the lock");
        second.get().release();

        // the control: the same manager with the replicas flowing again takes it
        group.flowReplication();
        try (LockHandle h = acked.acquire(NAME, ACKED)) {
            assertTrue(h.isHeld());
        }
    }

    @Test
    void aMasterWithoutReplicasNamesItselfWithoutItsPassword() {
        try (RedisNode lonely = new RedisNode("--requirepass", "s3cret-pw").start()) {
            LockManager m = LockManager.builder()
                    .redis("redis://default:s3cret-pw@127.0.0.1:" + lonely.port())
                    .replicaAcks(1, Duration.ofMillis(50))
                    .shutdownHook(false)
                    .build();
            managers.add(m);
            LockStoreException e = assertThrows(LockStoreException.class, () -> m.acquire("solo", PLAIN));
            assertTrue(e.getMessage().contains("1 replica asked, 0 acknowledged within 50 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("127.0.0.1:" + lonely.port()), e.getMessage());
            assertFalse(e.getMessage().contains("s3cret-pw"), "the password leaked: " + e.getMessage());
            assertEquals("0", lonely.command("EXISTS", "lock:{solo}"));
            // the control: the lock's own options switch it off, and it is taken
            try (LockHandle h = m.acquire("solo", PLAIN.replicaAcks(0, Duration.ofMillis(50)))) {
                assertTrue(h.isHeld());
            }
        }
    }

    @Test
    void aUserWithoutWaitPermissionGetsAnErrorAndTheLockIsGivenBack() throws InterruptedException {
        RedisNode master = group.master();
        master.command("ACL", "SETUSER", "nowait", "on", ">pw", "~*", "&*", "+@all", "-wait");
        LockManager m = LockManager.builder()
                .redis("redis://nowait:pw@127.0.0.1:" + master.port())
                .replicaAcks(1, Duration.ofMillis(200))
                .shutdownHook(false)
                .build();
        managers.add(m);
        LockStoreException e = assertThrows(LockStoreException.class, () -> m.acquire(NAME, PLAIN));
        assertTrue(e.getMessage().contains("NOPERM"), e.getMessage());
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!"0".equals(master.command("EXISTS", KEY)) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals("0", master.command("EXISTS", KEY), "the lock the script took was never given back");
    }

    @Test
    void withReplicaAcknowledgementAFailoverGrantsNoLockTwice() {
        RedisNode old = group.master();
        LockManager first = on("holder-a", old);
        group.holdReplication();
        assertThrows(LockStoreException.class, () -> first.acquire(NAME, ACKED));
        assertEquals("0", old.command("EXISTS", KEY));

        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        assertNull(promoted.command("GET", KEY), "the promoted replica has a lock nobody was given");
        // the second client is the only holder: the first never got a handle, so no one else believes it holds
        // the lock (without acknowledgement the first would, SentinelFailoverTest)
        Optional<LockHandle> second = on("holder-b", promoted).tryAcquire(NAME, PLAIN);
        assertTrue(second.isPresent(), "the lock is not free on the promoted master");
        assertTrue(second.get().isHeld());
    }

    @Test
    void extendWithReplicationHeldThrowsAndTheHandleKeepsItsOldValidity() {
        RedisNode master = group.master();
        LockManager acked = on("acked", master);
        LockHandle h = acked.acquire(NAME, ACKED.autoRefresh(false));
        assertTrue(h.extend(TTL), "the control: extend with the replicas flowing");
        group.holdReplication();
        LockStoreException e = assertThrows(LockStoreException.class, () -> h.extend(TTL));
        assertTrue(e.getMessage().contains("1 replica asked, 0 acknowledged within 200 ms"), e.getMessage());
        assertTrue(e.getMessage().contains("still held, but the extension is not confirmed"), e.getMessage());
        assertTrue(h.isHeld(), "the lock is still ours on the master; only the extension does not count");
        group.flowReplication();
        assertTrue(h.extend(TTL));
        h.release();
        assertEquals("0", master.command("EXISTS", KEY));
    }

    @Test
    void refreshesWithoutAcknowledgementLoseTheLockWhenItsTtlPasses() throws InterruptedException {
        RedisNode master = group.master();
        LockManager acked = on("acked", master);
        // a TTL and acknowledgement timeout with room for a busy 2-core machine: the control must not lose a refresh
        LockOptions shortTtl = LockOptions.ttl(Duration.ofSeconds(3)).replicaAcks(1, Duration.ofMillis(300));
        LockHandle control = acked.acquire("control", shortTtl);
        LockHandle h = acked.acquire(NAME, shortTtl);
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        h.onLost(lost::set);
        // the control: with the replicas flowing the watchdog keeps both past two TTLs
        Thread.sleep(6_000);
        assertTrue(h.isHeld() && control.isHeld(), "refreshes failed with the replicas flowing: " + lost.get());
        control.release();

        group.holdReplication();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (lost.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertNotNull(lost.get(), "refreshes the replicas never acknowledged kept the lock");
        assertFalse(h.isHeld());
        assertTrue(lost.get().reason().contains("TTL passed"), lost.get().reason());
    }
}
