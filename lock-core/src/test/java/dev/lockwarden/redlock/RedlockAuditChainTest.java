package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/** Over Redlock each node's audit stream is its own chain: every node's records are sealed after that node's last. */
class RedlockAuditChainTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    /**
     * The audit view merges every node's stream: a force-release every node recorded shows once, one only node 2
     * recorded (the lock was left there alone) shows too (read from node 0 alone it would be missing), and a record
     * deleted on one node shows as a gap.
     */
    @Test
    void theAuditMergesEveryNodeOnceAndShowsAGapOnAnyNode() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try (LockManager app =
                        LockManager.builder().redlock(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .redlock(uris)
                        .application("dashboard")
                        .auditSigner(AuditSigner.of(key))
                        .build()) {
            for (String name : List.of("m:1", "m:2", "m:3")) {
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                awaitOnEveryNode(name);
                assertTrue(dashboard.inspector().forceRelease(name, "alice").released(), name);
            }
            app.acquire("m:left", LockOptions.ttl(Duration.ofSeconds(30)));
            awaitOnEveryNode("m:left");
            REDIS.node(0).command("DEL", "lock:{m:left}");
            REDIS.node(1).command("DEL", "lock:{m:left}");
            assertEquals(
                    1, dashboard.inspector().forceRelease("m:left", "alice").releasedOn());

            List<AuditRecord> audit = dashboard.inspector().audit(10);
            assertEquals(
                    List.of("m:left", "m:3", "m:2", "m:1"),
                    audit.stream().map(AuditRecord::name).toList(),
                    "each force-release once, newest first, node 2's own record too");
            assertTrue(audit.stream().allMatch(r -> r.seal() == AuditRecord.Seal.VALID), audit.toString());

            URI u = URI.create(uris[1]);
            try (RedisClient c = RedisClient.create(u.getHost(), u.getPort())) {
                String m2 = c.xrange("lockwarden:audit", (StreamEntryID) null, (StreamEntryID) null)
                        .get(1)
                        .getID()
                        .toString();
                c.xdel("lockwarden:audit", new StreamEntryID(m2));
            }
            audit = dashboard.inspector().audit(10);
            assertEquals(4, audit.size(), "m:2 still shows from the other nodes: " + audit);
            assertEquals(AuditRecord.Seal.GAP, audit.get(1).seal(), "m:3 follows a deleted record on node 1: " + audit);
        }
    }

    @Test
    void everyNodesAuditStreamIsAnUnbrokenChain() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        AuditSigner signer = AuditSigner.of(key);
        try (LockManager app =
                        LockManager.builder().redlock(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .redlock(uris)
                        .application("dashboard")
                        .auditSigner(signer)
                        .build()) {
            REDIS.node(2).command("XADD", "lockwarden:audit", "*", "name", "older", "operator", "bob");
            for (String name : List.of("rl:a", "rl:b")) {
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                awaitOnEveryNode(name);
                assertTrue(dashboard.inspector().forceRelease(name, "alice").released(), name);
            }
            for (String uri : uris) {
                URI u = URI.create(uri);
                try (RedisClient c = RedisClient.create(u.getHost(), u.getPort())) {
                    List<StreamEntry> all = c.xrange("lockwarden:audit", (StreamEntryID) null, (StreamEntryID) null);
                    List<StreamEntry> sealed = all.stream()
                            .filter(e -> e.getFields().containsKey("mac"))
                            .toList();
                    assertEquals(2, sealed.size(), uri + ": " + all);
                    for (StreamEntry e : sealed) {
                        assertTrue(signer.verify(e.getFields()), uri + ": " + e);
                        StreamEntry before = all.get(all.indexOf(e) - 1 < 0 ? 0 : all.indexOf(e) - 1);
                        assertEquals(
                                all.indexOf(e) == 0 ? "0-0" : before.getID().toString(),
                                e.getFields().get("prev"),
                                uri + ": sealed after that node's last record");
                    }
                }
            }
        }
    }

    /** Acquire returns at a majority: waits until every node has the lock, so each one records the release. */
    private static void awaitOnEveryNode(String name) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (int i = 0; i < REDIS.uris().size(); i++) {
            while (!"1".equals(REDIS.node(i).command("EXISTS", "lock:{" + name + "}"))) {
                assertTrue(System.nanoTime() < deadline, "node " + i + " never got " + name);
                Thread.onSpinWait();
            }
        }
    }
}
