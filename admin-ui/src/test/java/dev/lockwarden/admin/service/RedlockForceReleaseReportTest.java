package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.security.Role;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the operator reads after a force-release over Redlock (3 real redis-servers): node by node. */
class RedlockForceReleaseReportTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    private static final AdminUser ALICE = new AdminUser("alice", Role.OPERATOR);
    private static final LockOptions FIXED =
            LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false);

    private LockManager billing;
    private LockManager admin;
    private AdminService service;

    @BeforeEach
    void start() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        billing = LockManager.builder().redlock(uris).application("billing").build();
        admin = LockManager.builder()
                .redlock(uris)
                .application("lockwarden-admin")
                .build();
        service = new AdminService(admin.inspector(), 100);
    }

    @AfterEach
    void stop() {
        billing.close();
        admin.close();
    }

    @Test
    void aReleaseOnEveryNodeSaysSo() {
        LockHandle held = billing.acquire("pay:all", FIXED);
        ForceReleaseResult r = service.forceRelease(service.get("pay:all").orElseThrow(), ALICE);
        String text = service.describe(r);
        assertTrue(
                text.matches(
                        "Released pay:all: fence " + held.fencingToken() + " → \\d+, audit id \\S+ — on all 3 nodes"),
                text);
    }

    /**
     * The lock is left on one node of three (the other two lost it): the force-release removed it there, raised the
     * fence everywhere and audited it on that node. The operator reads exactly that, not "Nothing was released".
     */
    @Test
    void aMinorityReleaseSaysOnWhichNodesItWasReleased() {
        LockHandle held = billing.acquire("pay:minority", FIXED);
        LockInfo seen = service.get("pay:minority").orElseThrow();
        awaitOnEveryNode("lock:{pay:minority}");
        REDIS.node(1).command("DEL", "lock:{pay:minority}");
        REDIS.node(2).command("DEL", "lock:{pay:minority}");

        ForceReleaseResult r = service.forceRelease(seen, ALICE);
        String text = service.describe(r);

        assertFalse(r.released());
        assertFalse(text.contains("Nothing was released"), text);
        assertTrue(
                text.startsWith("Released pay:minority on 1 of 3 nodes only, a minority ("
                        + REDIS.uris().get(0) + ")"),
                text);
        assertTrue(text.contains("fence " + held.fencingToken() + " → "), text);
        assertTrue(text.contains("(raised on every node)"), text);
        assertTrue(
                text.contains("Other nodes: " + REDIS.uris().get(1) + " free, "
                        + REDIS.uris().get(2) + " free"),
                text);
        assertEquals("0", REDIS.node(0).command("EXISTS", "lock:{pay:minority}"));
    }

    /** Control: a lock free on every node is "Nothing was released", and says so for each node. */
    @Test
    void nothingReleasedAnywhereSaysNothingWasReleased() {
        LockHandle held = billing.acquire("pay:gone", FIXED);
        LockInfo seen = service.get("pay:gone").orElseThrow();
        awaitOnEveryNode("lock:{pay:gone}");
        for (int i = 0; i < 3; i++) {
            REDIS.node(i).command("DEL", "lock:{pay:gone}");
        }
        LockChangedException e = assertThrows(LockChangedException.class, () -> service.forceRelease(seen, ALICE));
        assertTrue(
                e.getMessage()
                        .contains("Nothing was released on any node ("
                                + REDIS.uris().get(0) + " free"),
                e.getMessage());
        assertFalse(held.extend(Duration.ofSeconds(1)));
    }

    /** Acquire returns at a majority: waits until the last node has the lock too, so no late SET follows a DEL. */
    private static void awaitOnEveryNode(String key) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (int i = 0; i < REDIS.uris().size(); i++) {
            while (!"1".equals(REDIS.node(i).command("EXISTS", key))) {
                assertTrue(System.nanoTime() < deadline, "node " + i + " never got " + key);
                Thread.onSpinWait();
            }
        }
    }
}
