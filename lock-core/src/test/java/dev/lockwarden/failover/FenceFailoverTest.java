package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.fencing.JdbcFence;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import dev.lockwarden.testing.Replication;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fences stay ahead after a Sentinel failover that lost the last fences: the promoted replica's
 * fence counter is behind, yet every fence it issues is above every fence the dead master issued,
 * and {@link JdbcFence} on a real (H2) database refuses the old holder that still writes.
 */
@Timeout(120)
class FenceFailoverTest {

    private static final String NAME = "account:acc-1";
    private static final String FENCE_KEY = "lock:{" + NAME + "}:fence";
    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(30));
    private static final int ROUNDS = 5;

    private final JdbcFence fence = new JdbcFence("account", "id", "fence");
    private final Clients clients = new Clients();
    private RedisSentinelGroup group;
    private Connection db;

    @BeforeEach
    void start() throws Exception {
        group = new RedisSentinelGroup(true).start();
        db = DriverManager.getConnection("jdbc:h2:mem:failover-" + System.nanoTime());
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE account (id VARCHAR(20) PRIMARY KEY, owner VARCHAR(20), fence BIGINT)");
            s.execute("INSERT INTO account (id, owner) VALUES ('acc-1', 'nobody')");
        }
    }

    @AfterEach
    void stop() throws Exception {
        clients.close();
        group.close();
        db.close();
    }

    /** Acquires, writes through the fence and releases {@code ROUNDS} times; returns the highest fence. */
    private long writeRounds(LockManager locks, String owner) throws Exception {
        long max = 0;
        for (int i = 0; i < ROUNDS; i++) {
            try (LockHandle h = locks.acquire(NAME, OPTS)) {
                assertTrue(h.fencingToken() > max, h.fencingToken() + " after " + max);
                assertTrue(
                        fence.update(db, "acc-1", h.fencingToken(), Map.of("owner", owner)),
                        "the database refused fence " + h.fencingToken());
                max = h.fencingToken();
            }
        }
        return max;
    }

    @Test
    void everyFenceAfterThePromotionIsAboveEveryFenceBeforeIt() throws Exception {
        RedisNode old = group.master();
        LockManager first = clients.on("before", old);
        long replicated = writeRounds(first, "before");
        for (RedisNode replica : group.dataNodes().subList(1, 3)) {
            Replication.awaitCaughtUp(old, replica, Duration.ofSeconds(10));
        }
        group.holdReplication();
        writeRounds(first, "before"); // fences the replicas never see
        LockHandle stale = first.acquire(NAME, OPTS);
        long maxBefore = stale.fencingToken();
        assertTrue(fence.update(db, "acc-1", maxBefore, Map.of("owner", "stale")));

        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        long counter = Long.parseLong(promoted.command("GET", FENCE_KEY));
        // the control: the promoted counter is behind, a bare INCR would hand out old fences
        assertTrue(counter == replicated && counter < maxBefore, "counter " + counter + ", before " + maxBefore);

        LockManager second = clients.on("after", promoted);
        long minAfter = Long.MAX_VALUE;
        for (int i = 0; i < ROUNDS; i++) {
            try (LockHandle h = second.acquire(NAME, OPTS)) {
                minAfter = Math.min(minAfter, h.fencingToken());
                assertTrue(
                        fence.update(db, "acc-1", h.fencingToken(), Map.of("owner", "after")),
                        "the database refused fence " + h.fencingToken() + " after the failover");
            }
        }
        System.out.printf(
                "fences: replicated %d, last before %d, first after %d (+%d)%n",
                replicated, maxBefore, minAfter, minAfter - maxBefore);
        assertTrue(minAfter > maxBefore, "fence " + minAfter + " after the failover is not above " + maxBefore);
        // the old holder still believes it holds the lock; its write is refused
        assertTrue(stale.isHeld());
        assertFalse(fence.update(db, "acc-1", stale.fencingToken(), Map.of("owner", "stale")));
    }
}
