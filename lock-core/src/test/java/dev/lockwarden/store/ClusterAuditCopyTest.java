package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.config.RedisUri;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * On Redis Cluster the audit record is copied from the lock's history to {@code lockwarden:audit} after the
 * script, through a call that is retried once after a broken connection. A retry whose first attempt was
 * written (only its reply was lost) must not write it again: {@link ClusterAuditCopy} run a second time for
 * the same force-release returns the record already there.
 */
class ClusterAuditCopyTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Test
    void theAuditCopyOfOneForceReleaseIsWrittenOnceThoughTheCallIsRepeated() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        try (LockManager app =
                        LockManager.builder().cluster(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .cluster(uris)
                        .application("dashboard")
                        .build();
                RedisDeployment redis = StoreFactory.create(
                        StoreFactory.Topology.CLUSTER,
                        REDIS.uris().stream().map(RedisUri::parse).toList(),
                        new KeySpace("lock:"),
                        new ConnectionSettings(Duration.ofSeconds(2), 8, null),
                        60_000,
                        false)) {
            LockHandle held = app.acquire("copy:once", LockOptions.ttl(Duration.ofSeconds(30)));
            ForceReleaseResult r = dashboard.inspector().forceRelease("copy:once", "alice");
            assertTrue(r.released(), r.toString());
            assertEquals(1, audited(redis).size());
            RedisNodeClient node = redis.first();
            String historyId = node.redis()
                    .xrevrange("lock:{copy:once}:history", (StreamEntryID) null, null, 1)
                    .get(0)
                    .getID()
                    .toString();

            String again = ClusterAuditCopy.copy(node, "copy:once", historyId, 1_000, null);

            assertEquals(r.auditId(), again, "the repeated copy finds the record the first one wrote");
            List<StreamEntry> records = audited(redis);
            assertEquals(1, records.size(), records.toString());
            assertEquals(historyId, records.get(0).getFields().get("historyId"));
            assertEquals("alice", records.get(0).getFields().get("operator"));

            // control: a plain XADD of the same record, as the copy was written before, does make a duplicate
            node.redis()
                    .xadd(
                            KeySpace.AUDIT,
                            XAddParams.xAddParams(),
                            records.get(0).getFields());
            assertEquals(2, audited(redis).size());
            assertEquals(false, held.extend(Duration.ofSeconds(1)), "the holder's lock is gone");
        }
    }

    /** With the dashboard's key: the copy is sealed after the audit stream's last record, once, and checks out. */
    @Test
    void sealedCopiesChainOnTheAuditStreamsMaster() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        try (LockManager app =
                        LockManager.builder().cluster(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .cluster(uris)
                        .application("dashboard")
                        .auditSigner(dev.lockwarden.AuditSigner.of(key))
                        .build()) {
            for (String name : List.of("sealed:a", "sealed:b", "sealed:c")) { // three slots, likely three masters
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                assertTrue(dashboard.inspector().forceRelease(name, "alice").released(), name);
            }
            List<dev.lockwarden.AuditRecord> audit = dashboard.inspector().audit(10);
            assertEquals(3, audit.size(), audit.toString());
            assertTrue(
                    audit.stream().allMatch(r -> r.seal() == dev.lockwarden.AuditRecord.Seal.VALID), audit.toString());
            assertEquals(
                    3L,
                    audit.stream()
                            .map(dev.lockwarden.AuditRecord::newFence)
                            .filter(f -> f > 0)
                            .count(),
                    "the copy carries the script's fields");
        }
    }

    private static List<StreamEntry> audited(RedisDeployment redis) {
        return redis.first().redis().xrange(KeySpace.AUDIT, (StreamEntryID) null, null).stream()
                .filter(e -> "copy:once".equals(e.getFields().get("name")))
                .toList();
    }
}
