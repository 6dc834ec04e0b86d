package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The data model of a held lock: one key whose value is token, fence and packed holder
 * ({@link LockValue}); a lock of the older layout (token alone, holder in {@code :info}), written by an
 * older version, is still read, refreshed and force-released, and is busy for this version's acquire.
 */
class LockValueLayoutTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private LockManager locks;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("layout")
                .shutdownHook(false)
                .build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
    }

    private static String cmd(String... args) {
        return REDIS.node(0).command(args);
    }

    @Test
    void aHeldLockIsOneKeyHoldingTokenFenceAndHolder() {
        LockOptions opts = LockOptions.ttl(Duration.ofSeconds(20)).source(LockSource.CDI, "Billing#charge");
        try (LockHandle h = locks.acquire("layout:one", opts)) {
            assertEquals("0", cmd("EXISTS", "lock:{layout:one}:info"), "no second key per lock");
            LockValue v = LockValue.parse(cmd("GET", "lock:{layout:one}"));
            assertEquals(Long.toString(h.fencingToken()), v.fence());
            assertEquals(
                    Long.toString(h.fencingToken()), cmd("GET", "lock:{layout:one}:fence"), "the counter is the token");
            LockHolder holder = LockHolder.decode(v.packed());
            assertEquals(Thread.currentThread().getName(), holder.thread());
            assertEquals(LockSource.CDI, holder.source());
            assertEquals("Billing#charge", holder.method());
            LockInfo seen = locks.inspector().get("layout:one").orElseThrow();
            assertEquals(h.fencingToken(), seen.fencingToken());
            assertEquals("layout", seen.holder().application());
            assertEquals("Billing#charge", seen.method());
            assertTrue(h.extend(Duration.ofSeconds(60)));
            assertTrue(Long.parseLong(cmd("PTTL", "lock:{layout:one}")) > 25_000, "the refresh extended the one key");
        }
        assertNull(cmd("GET", "lock:{layout:one}"), "released");
    }

    @Test
    void aLockOfTheOlderLayoutIsReadRefreshedAndForceReleased() {
        RedisNodeClient node = new RedisNodeClient(
                redis.clients.jedis.RedisClient.create(
                        REDIS.node(0).host(), REDIS.node(0).port()),
                REDIS.uri(),
                new KeySpace("lock:"),
                60_000,
                null,
                null);
        try (node) {
            Lease lease = new Lease("layout:old", "old-token", 5_000);
            long fence = 1_700_000_000_000_000L;
            writeAsOlderVersion(
                    lease, fence, Map.of("thread", "old-thread", "source", "AGENT", "method", "Legacy#run"));
            assertTrue(
                    locks.tryAcquire("layout:old", LockOptions.ttl(Duration.ofSeconds(5)))
                            .isEmpty(),
                    "held by the older version: busy for this one");
            assertFalse(node.release(lease, ReleaseScript.Wake.IF_WAITED, 0), "not released as a lock of this layout");
            assertEquals("old-token", cmd("GET", "lock:{layout:old}"), "left to its holder");

            LockInfo seen = locks.inspector().get("layout:old").orElseThrow();
            assertEquals(fence, seen.fencingToken());
            assertEquals("old-thread", seen.holder().thread());
            assertEquals("Legacy#run", seen.method());

            assertTrue(node.refresh(java.util.List.of(new Lease("layout:old", "old-token", 60_000)))[0]);
            assertTrue(Long.parseLong(cmd("PTTL", "lock:{layout:old}:info")) > 30_000, "the info hash is extended too");

            ForceReleaseResult fr = locks.inspector().forceRelease(seen, "alice");
            assertTrue(fr.released());
            assertEquals(fence, fr.oldFence());
            assertEquals("0", cmd("EXISTS", "lock:{layout:old}"));
            assertEquals("0", cmd("EXISTS", "lock:{layout:old}:info"));
            assertFalse(node.release(lease, ReleaseScript.Wake.IF_WAITED, 0), "gone");
        }
    }

    /**
     * A lock as an older version wrote it: the token alone as the value, fence and holder fields in the
     * {@code :info} hash with the lock's TTL, and the fence counter.
     */
    private static void writeAsOlderVersion(Lease lease, long fence, Map<String, String> info) {
        String lock = "lock:{" + lease.name() + "}";
        cmd("SET", lock, lease.token(), "PX", Long.toString(lease.ttlMillis()));
        cmd("HSET", lock + ":info", "fence", Long.toString(fence));
        info.forEach((k, v) -> cmd("HSET", lock + ":info", k, v));
        cmd("PEXPIRE", lock + ":info", Long.toString(lease.ttlMillis()));
        cmd("SET", lock + ":fence", Long.toString(fence));
    }
}
