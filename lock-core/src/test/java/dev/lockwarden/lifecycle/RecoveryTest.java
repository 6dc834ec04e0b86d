package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client survives Redis dropping its connections (CLIENT KILL of command and pub/sub connections)
 * and its data (FLUSHALL).
 */
class RecoveryTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private LockManager locks;
    private LockManager other;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("holder")
                .shutdownHook(false)
                .build();
        other = LockManager.builder()
                .redis(REDIS.uri())
                .application("other")
                .shutdownHook(false)
                .build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
        other.close();
    }

    private static int clients(String type) {
        String list = REDIS.node(0).command("CLIENT", "LIST", "TYPE", type);
        return list == null || list.isBlank() ? 0 : list.strip().split("\n").length;
    }

    @Test
    void autoRefreshedLocksOutliveSeveralTtlsOfKilledConnections() throws Exception {
        LockOptions shortTtl = LockOptions.ttl(Duration.ofMillis(900));
        List<LockHandle> held = List.of(
                locks.acquire("kill:a", shortTtl),
                locks.acquire("kill:b", shortTtl),
                locks.acquire("kill:c", shortTtl));
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4_000); // > 4 TTLs
        int kills = 0;
        while (System.nanoTime() < until) {
            REDIS.node(0).command("CLIENT", "KILL", "TYPE", "normal"); // every connection of both managers
            kills++;
            Thread.sleep(250);
            for (LockHandle h : held) {
                assertTrue(h.isHeld(), h + " lost after " + kills + " CLIENT KILLs");
            }
        }
        for (LockHandle h : held) {
            assertTrue(
                    other.tryAcquire(h.name(), shortTtl).isEmpty(),
                    h.name() + " expired in Redis while the watchdog ran");
            h.release();
            assertTrue(other.tryAcquire(h.name(), shortTtl).isPresent(), h.name() + " not released after the kills");
        }
    }

    @Test
    void waitersAreStillWokenAfterThePubSubConnectionIsKilled() throws Exception {
        LockHandle h = locks.acquire("kill:pubsub", LockOptions.ttl(Duration.ofSeconds(20)));
        // the retry interval is far longer than the test's bound: only a release message wakes the waiter in time
        LockOptions waitLong = LockOptions.ttl(Duration.ofSeconds(5))
                .waitUpTo(Duration.ofSeconds(15))
                .retryInterval(Duration.ofSeconds(10));
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try (LockHandle got = other.acquire("kill:pubsub", waitLong)) {
                return System.nanoTime();
            }
        });
        awaitClients("pubsub", 2); // the waiter's, and the holder's (it listens for force-releases)
        Thread.sleep(1_500); // the waiter is in its long sleep
        REDIS.node(0).command("CLIENT", "KILL", "TYPE", "pubsub");
        awaitClients("pubsub", 2); // both buses reconnected and re-subscribed
        Thread.sleep(1_000); // and the waiter went back to its long sleep
        long released = System.nanoTime();
        h.release();
        long woken = waiter.get(12, TimeUnit.SECONDS);
        long ms = TimeUnit.NANOSECONDS.toMillis(woken - released);
        assertTrue(ms < 1_000, "waiter got the lock " + ms + " ms after the release: not woken by pub/sub");
    }

    @Test
    void theHeartbeatBringsBackWhoThisJvmIsWithinOnePeriodAfterRedisLostItsData() throws Exception {
        String jvmId;
        try (LockHandle h = locks.acquire("flush:who", LockOptions.ttl(Duration.ofSeconds(5)))) {
            jvmId = locks.inspector().get("flush:who").orElseThrow().holder().jvmId();
        }
        String record = "lockwarden:holder:" + jvmId;
        assertEquals("holder", REDIS.node(0).command("HGET", record, "app"), "written at start");

        REDIS.flushAll();
        long flushed = System.nanoTime();
        // no acquire from here on: the heartbeat alone must write the record back
        while (REDIS.node(0).command("HGET", record, "app") == null) {
            assertTrue(
                    System.nanoTime() - flushed < TimeUnit.SECONDS.toNanos(8),
                    "the per-JVM record (application, host, pid) is not back 8 s after FLUSHALL; the heartbeat beats every 5 s");
            Thread.sleep(100);
        }
        assertEquals(
                String.valueOf(ProcessHandle.current().pid()), REDIS.node(0).command("HGET", record, "pid"));
        long ttlMillis = Long.parseLong(REDIS.node(0).command("PTTL", record));
        assertTrue(ttlMillis > TimeUnit.DAYS.toMillis(6), "the record outlives the heartbeat: PTTL " + ttlMillis);
        assertTrue(
                REDIS.node(0).command("GET", "lockwarden:jvm:" + jvmId).startsWith("holder@"),
                "and the heartbeat is back");
    }

    private static void awaitClients(String type, int atLeast) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (clients(type) < atLeast) {
            assertTrue(System.nanoTime() < until, "no " + type + " client");
            Thread.sleep(20);
        }
    }
}
