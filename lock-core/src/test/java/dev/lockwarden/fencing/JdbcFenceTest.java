package dev.lockwarden.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client-pause scenario on a 5-node Redlock, with the fence checked by a real (embedded H2) database. */
class JdbcFenceTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    private final JdbcFence fence = new JdbcFence("account", "id", "fence");
    private Connection db;
    private LockManager appA;
    private LockManager appB;

    @BeforeEach
    void setUp() throws Exception {
        REDIS.flushAll();
        db = DriverManager.getConnection("jdbc:h2:mem:fence-" + System.nanoTime());
        try (Statement s = db.createStatement()) {
            s.execute(
                    "CREATE TABLE account (id VARCHAR(20) PRIMARY KEY, owner VARCHAR(20), balance BIGINT, fence BIGINT)");
            s.execute("INSERT INTO account (id, owner, balance) VALUES ('acc-1', 'nobody', 0)");
        }
        appA = LockManager.builder()
                .redlock(REDIS.uris().toArray(String[]::new))
                .application("app-a")
                .build();
        appB = LockManager.builder()
                .redlock(REDIS.uris().toArray(String[]::new))
                .application("app-b")
                .build();
    }

    @AfterEach
    void tearDown() throws Exception {
        appA.close();
        appB.close();
        db.close();
    }

    @Test
    void pausedHolderWritesWithAStaleFenceAndIsRejected() throws Exception {
        LockOptions shortLived = LockOptions.ttl(Duration.ofMillis(300)).autoRefresh(false);
        LockHandle a = appA.acquire("account:acc-1", shortLived);
        long staleFence = a.fencingToken();

        Thread.sleep(500); // A "pauses" (a GC pause) past its TTL, without noticing

        try (LockHandle b = appB.acquire("account:acc-1", LockOptions.ttl(Duration.ofSeconds(5)))) {
            assertTrue(b.fencingToken() > staleFence);
            assertTrue(fence.update(db, "acc-1", b.fencingToken(), Map.of("owner", "B", "balance", 200L)));
        }
        // A wakes up and writes as if it still held the lock: the database refuses
        assertFalse(fence.update(db, "acc-1", staleFence, Map.of("owner", "A", "balance", 100L)));
        assertEquals("B:200", row());
    }

    @Test
    void lowerFenceIsRejectedEqualAndHigherAccepted() throws Exception {
        assertTrue(fence.update(db, "acc-1", 5, Map.of("balance", 1L)));
        assertTrue(fence.update(db, "acc-1", 5, Map.of("balance", 2L)), "the same holder writes again");
        assertFalse(fence.update(db, "acc-1", 4, Map.of("balance", 9L)), "an older holder");
        assertTrue(fence.update(db, "acc-1", 6, Map.of("balance", 3L)));
        assertFalse(fence.update(db, "missing", 99, Map.of("balance", 4L)), "no such row");
        assertEquals("nobody:3", row());
    }

    /**
     * Two holders of the same lock at once (the old one paused past its TTL): each reads the balance
     * and writes it back plus its deposit. Without a claim, the old holder's write lands between the
     * new holder's read and write and is undone by it, although it was reported written — each write
     * carried a higher token than the row's at its time, so no token check can see it. With a claim
     * before the read, the old holder's write is refused (it knows), and nothing reported written is lost.
     */
    @Test
    void aClaimBeforeTheReadStopsAnOlderHolderInBetween() throws Exception {
        assertEquals(50L, lostDeposits(false), "control: the old holder's accepted deposit of 50 is lost");
        try (Statement s = db.createStatement()) {
            s.execute("UPDATE account SET balance = 0, fence = NULL WHERE id = 'acc-1'");
        }
        assertEquals(0L, lostDeposits(true));
        assertEquals(100L, balance());
    }

    /**
     * Old holder (token 7) deposits 50, new holder (token 8) deposits 100, interleaved as described;
     * returns the deposits reported written minus the final balance.
     */
    private long lostDeposits(boolean claim) throws Exception {
        long older = 7, newer = 8;
        if (claim) {
            assertTrue(fence.claim(db, "acc-1", older));
        }
        long oldRead = balance();
        if (claim) {
            assertTrue(fence.claim(db, "acc-1", newer));
        }
        long newRead = balance();
        boolean oldWritten = fence.update(db, "acc-1", older, Map.of("balance", oldRead + 50));
        assertEquals(!claim, oldWritten, "the old holder's write");
        assertTrue(fence.update(db, "acc-1", newer, Map.of("balance", newRead + 100)));
        assertFalse(fence.claim(db, "acc-1", older), "a claim with an older token");
        return (oldWritten ? 50 : 0) + 100 - balance();
    }

    private long balance() throws Exception {
        try (Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT balance FROM account WHERE id = 'acc-1'")) {
            assertTrue(r.next());
            return r.getLong(1);
        }
    }

    @Test
    void namesAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new JdbcFence("account; DROP TABLE x", "id", "fence"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> fence.update(db, "acc-1", 1, Map.of("fence", 7L)));
        assertTrue(e.getMessage().contains("managed by JdbcFence"), e.getMessage());
    }

    private String row() throws Exception {
        try (Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT owner, balance FROM account WHERE id = 'acc-1'")) {
            assertTrue(r.next());
            return r.getString(1) + ":" + r.getLong(2);
        }
    }
}
