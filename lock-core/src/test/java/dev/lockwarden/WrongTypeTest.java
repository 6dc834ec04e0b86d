package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.store.NodeException;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keys of a lock written by hand with the wrong type (SET, HSET): a clear {@link LockStoreException}
 * naming the problem, never a ClassCastException, a lock held forever, or a lock reported as held.
 */
class WrongTypeTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(5));
    private LockManager locks;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder().redis(REDIS.uri()).shutdownHook(false).build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
    }

    private static String cmd(String... args) {
        return REDIS.node(0).command(args);
    }

    @Test
    void aHashAtTheLockKey() {
        cmd("HSET", "lock:{typed:hash}", "owner", "someone");
        LockStoreException e = assertThrows(LockStoreException.class, () -> locks.acquire("typed:hash", OPTS));
        assertTrue(e.getMessage().contains("WRONGTYPE") && e.getMessage().contains("did not write"), e.getMessage());
        assertEquals(REDIS.uri(), assertInstanceOf(NodeException.class, e).node(), "the error names the node");
        assertThrows(LockStoreException.class, () -> locks.tryAcquire("typed:hash", OPTS));
        assertEquals("someone", cmd("HGET", "lock:{typed:hash}", "owner"), "the foreign key was changed");
    }

    @Test
    void aStringWithoutTtlAtTheLockKeyIsNotReportedAsBusyForever() {
        cmd("SET", "lock:{typed:forever}", "by-hand");
        LockStoreException e = assertThrows(
                LockStoreException.class, () -> locks.acquire("typed:forever", OPTS.waitUpTo(Duration.ofSeconds(1))));
        assertTrue(
                e.getMessage().contains("without a TTL") && e.getMessage().contains("lock:{typed:forever}"),
                e.getMessage());
        assertEquals(REDIS.uri(), assertInstanceOf(NodeException.class, e).node(), "the error names the node");
    }

    @Test
    void aNonNumericFenceCounter() {
        cmd("SET", "lock:{typed:fence}:fence", "not-a-number");
        LockStoreException e = assertThrows(LockStoreException.class, () -> locks.acquire("typed:fence", OPTS));
        assertTrue(
                e.getMessage().contains("not an integer") && e.getMessage().contains("did not write"), e.getMessage());
        awaitGone("lock:{typed:fence}"); // the half-done attempt is given back
        cmd("DEL", "lock:{typed:fence}:fence");
        try (LockHandle h = locks.acquire("typed:fence", OPTS)) {
            assertTrue(h.isHeld());
        }
    }

    /**
     * Holder and fence live in the lock's own value now: the {@code :info} key of the older layout is
     * neither read nor written by a LockManager's acquire, so a foreign value there can neither fail the
     * lock nor be overwritten, and the dashboard still shows the holder from the lock's value.
     */
    @Test
    void aStringAtTheInfoKeyIsNeitherUsedNorTouched() {
        cmd("SET", "lock:{typed:info}:info", "not-a-hash");
        try (LockHandle h = locks.acquire("typed:info", OPTS)) {
            assertTrue(h.isHeld());
            LockInfo seen = locks.inspector().get("typed:info").orElseThrow();
            assertEquals(h.fencingToken(), seen.fencingToken());
            assertEquals(Thread.currentThread().getName(), seen.holder().thread());
        }
        awaitGone("lock:{typed:info}");
        assertEquals("not-a-hash", cmd("GET", "lock:{typed:info}:info"), "the foreign key was changed");
    }

    private static void awaitGone(String key) {
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (cmd("GET", key) != null && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertNull(cmd("GET", key), key + " left behind by a failed attempt");
    }
}
