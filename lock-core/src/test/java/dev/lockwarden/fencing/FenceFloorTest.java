package dev.lockwarden.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fences stay above every earlier fence when the counter is lost (docs/fencing.md): Redis restarted
 * empty, the counter's retention expired, Redlock nodes restarted empty. Each time the new holder's
 * write passes {@link JdbcFence} on a real (H2) database that the last holder before the loss wrote.
 */
class FenceFloorTest {
    private static final String NAME = "account:acc-1";
    private static final String FENCE_KEY = "lock:{" + NAME + "}:fence";
    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(5));

    private final JdbcFence fence = new JdbcFence("account", "id", "fence");
    private final List<LockManager> managers = new ArrayList<>();
    private Connection db;

    @BeforeEach
    void setUpDb() throws Exception {
        db = DriverManager.getConnection("jdbc:h2:mem:floor-" + System.nanoTime());
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE account (id VARCHAR(20) PRIMARY KEY, owner VARCHAR(20), fence BIGINT)");
            s.execute("INSERT INTO account (id, owner) VALUES ('acc-1', 'nobody')");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        managers.forEach(LockManager::close);
        managers.clear();
        db.close();
    }

    private LockManager manager(LockManager.Builder b) {
        LockManager m = b.application("floor").build();
        managers.add(m);
        return m;
    }

    /** Several holders in a row, each writing the row; returns the highest fence issued. */
    private long holdersWrite(LockManager locks, int holders) throws Exception {
        long last = 0;
        for (int i = 0; i < holders; i++) {
            try (LockHandle h = locks.acquire(NAME, OPTS)) {
                assertTrue(h.fencingToken() > last, "fence " + h.fencingToken() + " after " + last);
                assertTrue(fence.update(db, "acc-1", h.fencingToken(), Map.of("owner", "before-" + i)));
                last = h.fencingToken();
            }
        }
        return last;
    }

    /** The first holder after the loss gets a greater fence, and the database takes its write. */
    private void nextHolderIsAccepted(LockManager locks, long before) throws Exception {
        try (LockHandle h = locks.acquire(NAME, OPTS)) {
            assertTrue(
                    h.fencingToken() > before,
                    "fence " + h.fencingToken() + " is not above " + before + " issued before the counter was lost");
            assertTrue(
                    fence.update(db, "acc-1", h.fencingToken(), Map.of("owner", "after")),
                    "JdbcFence rejected the new holder's write");
        }
        assertEquals(1, count("SELECT COUNT(*) FROM account WHERE owner = 'after'"));
        assertTrue(
                before < 1L << 53 && before > 1_600_000_000_000_000L,
                "a clock-floored fence in microseconds: " + before);
    }

    private int count(String sql) throws Exception {
        try (Statement s = db.createStatement();
                var r = s.executeQuery(sql)) {
            r.next();
            return r.getInt(1);
        }
    }

    @Nested
    class SingleNode {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

        @BeforeEach
        void flush() {
            REDIS.flushAll();
        }

        @Test
        void redisRestartedWithoutPersistence() throws Exception {
            LockManager locks = manager(LockManager.builder().redis(REDIS.uri()));
            long before = holdersWrite(locks, 3);
            REDIS.node(0).restart(); // empty: the counter is gone
            assertNull(REDIS.node(0).command("GET", FENCE_KEY));
            // control: a bare counter would restart at 1, and the database would refuse every write
            assertEquals("1", REDIS.node(0).command("INCR", "lock:{control}:fence"));
            assertFalse(fence.update(db, "acc-1", 1, Map.of("owner", "control")));
            nextHolderIsAccepted(locks, before);
        }

        @Test
        void counterRetentionExpired() throws Exception {
            LockManager locks = manager(LockManager.builder().redis(REDIS.uri()));
            long before = holdersWrite(locks, 3);
            long retention = Long.parseLong(REDIS.node(0).command("PTTL", FENCE_KEY));
            assertTrue(retention > Duration.ofDays(6).toMillis(), "retention " + retention);
            // the builder refuses a retention below the longest TTL, so let this one run out by hand
            REDIS.node(0).command("PEXPIRE", FENCE_KEY, "1");
            Thread.sleep(50);
            assertNull(REDIS.node(0).command("GET", FENCE_KEY), "the counter should have expired");
            nextHolderIsAccepted(locks, before);
        }

        @Test
        void aCounterAheadOfTheClockKeepsCounting() throws Exception {
            LockManager locks = manager(LockManager.builder().redis(REDIS.uri()));
            long ahead = holdersWrite(locks, 1) + 10_000_000_000L; // ~3 hours ahead of the server clock
            REDIS.node(0).command("SET", FENCE_KEY, Long.toString(ahead));
            try (LockHandle h = locks.acquire(NAME, OPTS)) {
                assertEquals(ahead + 1, h.fencingToken());
                assertEquals(Long.toString(ahead + 1), REDIS.node(0).command("GET", FENCE_KEY));
            }
        }
    }

    @Nested
    class Redlock {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

        @BeforeEach
        void flush() {
            REDIS.flushAll();
        }

        @Test
        void everyNodeRestartedEmpty() throws Exception {
            LockManager locks =
                    manager(LockManager.builder().redlock(REDIS.uris().toArray(String[]::new)));
            long before = holdersWrite(locks, 3);
            for (RedisNode n : REDIS.nodes()) {
                n.restart();
            }
            nextHolderIsAccepted(locks, before);
        }

        @Test
        void majorityRestartedEmptyWhileTheOthersKeptTheirCounters() throws Exception {
            LockManager locks =
                    manager(LockManager.builder().redlock(REDIS.uris().toArray(String[]::new)));
            long before = holdersWrite(locks, 3);
            for (int i = 0; i < 3; i++) {
                REDIS.node(i).restart();
            }
            nextHolderIsAccepted(locks, before);
        }
    }

    /** Redis Cluster (3 masters): the lock's keys live on the master owning their slot. */
    @Nested
    class Cluster {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

        @BeforeEach
        void flush() {
            REDIS.flushAll();
        }

        private LockManager clusterManager() {
            return manager(LockManager.builder().cluster(REDIS.uris().toArray(String[]::new)));
        }

        /** Runs a command on the master owning {@code key} (the others answer MOVED). */
        private String onOwner(String... command) {
            for (RedisNode n : REDIS.nodes()) {
                try {
                    return n.command(command);
                } catch (RuntimeException moved) {
                    if (!String.valueOf(moved.getMessage()).contains("MOVED")) {
                        throw moved;
                    }
                }
            }
            throw new AssertionError("no master owns " + command[1]);
        }

        @Test
        void counterKeyDeleted() throws Exception {
            LockManager locks = clusterManager();
            long before = holdersWrite(locks, 3);
            assertEquals("1", onOwner("DEL", FENCE_KEY));
            assertNull(onOwner("GET", FENCE_KEY));
            nextHolderIsAccepted(locks, before);
        }

        @Test
        void counterRetentionExpired() throws Exception {
            LockManager locks = clusterManager();
            long before = holdersWrite(locks, 3);
            onOwner("PEXPIRE", FENCE_KEY, "1");
            Thread.sleep(50);
            assertNull(onOwner("GET", FENCE_KEY), "the counter should have expired");
            nextHolderIsAccepted(locks, before);
        }

        @Test
        void everyMasterRestartedEmpty() throws Exception {
            LockManager locks = clusterManager();
            long before = holdersWrite(locks, 3);
            for (RedisNode n : REDIS.nodes()) {
                n.restart(); // same port, empty data, keeps its slots (nodes.conf)
            }
            REDIS.cluster().awaitClusterOk(Duration.ofSeconds(30));
            assertNull(onOwner("GET", FENCE_KEY), "restarted empty");
            // the client reconnects by itself; give it a bounded moment on another name
            long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            for (int i = 0; ; i++) {
                try {
                    locks.acquire("warm-up:" + i, OPTS).release();
                    break;
                } catch (dev.lockwarden.LockStoreException reconnecting) {
                    assertTrue(System.nanoTime() < until, "cluster not usable 15 s after restart: " + reconnecting);
                    Thread.sleep(200);
                }
            }
            nextHolderIsAccepted(locks, before);
        }
    }
}
