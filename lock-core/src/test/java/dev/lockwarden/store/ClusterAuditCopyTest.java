package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.HolderInfo;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.config.RedisUri;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * On Redis Cluster the audit record is copied from the lock's history to {@code lockwarden:audit} after the
 * script, through a call that is retried once after a broken connection. A retry whose first attempt was
 * written (only its reply was lost) must not write it again: {@link ClusterAuditCopy} run a second time for
 * the same force-release returns the record already there. The copy is the record the script returned, not the
 * lock's history entry, which an application can rewrite by then.
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

            Map<String, String> record = new LinkedHashMap<>(node.redis()
                    .xrevrange("lock:{copy:once}:history", (StreamEntryID) null, null, 1)
                    .get(0)
                    .getFields());

            String again = ClusterAuditCopy.copy(node, "copy:once", historyId, record, 1_000, null);

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

    /**
     * The holder hears of its force-release before the copy runs, and applications' ACL may write the lock's
     * history (docs/acl.md): it can delete its history entry, or rewrite it under the same id, in between. The copy
     * seals what the script wrote all the same (reading the history back, it sealed the forged fields as VALID).
     */
    @Test
    void theCopySealsTheScriptsRecordNotAHistoryEntryTheHolderRewrote() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        AuditSigner signer = AuditSigner.of(key);
        try (LockManager app =
                        LockManager.builder().cluster(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .cluster(uris)
                        .application("dashboard")
                        .auditSigner(signer)
                        .build();
                RedisDeployment redis = StoreFactory.create(
                        StoreFactory.Topology.CLUSTER,
                        REDIS.uris().stream().map(RedisUri::parse).toList(),
                        new KeySpace("lock:"),
                        new ConnectionSettings(Duration.ofSeconds(2), 8, null),
                        60_000,
                        false)) {
            RedisNodeClient node = redis.first();
            Map<String, Long> fences = new LinkedHashMap<>();
            for (String name : List.of("forged:rewritten", "forged:deleted")) {
                LockHandle held = app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                fences.put(name, held.fencingToken());
                HolderInfo holder =
                        dashboard.inspector().get(name).orElseThrow().holder();
                Map<String, String> audit = new LinkedHashMap<>();
                audit.put("name", name);
                audit.put("operator", "alice");
                audit.put("at", Long.toString(System.currentTimeMillis()));
                audit.put("holder.app", "app");
                ForceReleaseScript.Reply r = node.forceRelease(name, "", 0, audit, 1_000);
                assertTrue(r.released(), r.toString());
                assertEquals(held.fencingToken(), r.oldFence());

                // the holder, told at once, rewrites its history entry under the same id, or deletes it
                String history = node.keySpace().history(name);
                node.redis().del(history);
                if (name.endsWith("rewritten")) {
                    Map<String, String> forged = new LinkedHashMap<>();
                    forged.put("type", "force-release");
                    forged.put("oldFence", "1");
                    forged.put("newFence", Long.toString(r.newFence()));
                    forged.put("oldToken", "000000000000");
                    forged.put("name", name);
                    forged.put("operator", "mallory");
                    forged.put("at", "0");
                    forged.put("holder.app", "someone-else");
                    node.redis().xadd(history, XAddParams.xAddParams().id(r.historyId()), forged);
                    assertEquals(
                            "mallory",
                            node.redis()
                                    .xrange(history, (StreamEntryID) null, null)
                                    .get(0)
                                    .getFields()
                                    .get("operator"),
                            "the control: the history entry is the forged one");
                }

                String id = ClusterAuditCopy.copy(node, name, r.historyId(), r.auditRecord(), 1_000, signer::seal);

                StreamEntryID at = new StreamEntryID(id);
                Map<String, String> f =
                        node.redis().xrange(KeySpace.AUDIT, at, at).get(0).getFields();
                assertEquals(Long.toString(held.fencingToken()), f.get("oldFence"), f.toString());
                assertEquals(Long.toString(r.newFence()), f.get("newFence"), f.toString());
                assertEquals(r.tokenSha1().substring(0, 12), f.get("oldToken"), f.toString());
                assertEquals(name, f.get("name"), f.toString());
                assertEquals("alice", f.get("operator"), f.toString());
                assertEquals(audit.get("at"), f.get("at"), f.toString());
                assertEquals("app", f.get("holder.app"), f.toString());
                assertEquals(holder.jvmId(), f.get("holder.jvm"), f.toString());
                assertEquals(holder.thread(), f.get("holder.thread"), f.toString());
                assertEquals(r.historyId(), f.get("historyId"), f.toString());
                assertTrue(signer.verify(f), f.toString());
                assertEquals(false, held.extend(Duration.ofSeconds(1)), "the holder's lock is gone");
            }

            List<AuditRecord> records = dashboard.inspector().audit(10);
            assertEquals(2, records.size(), records.toString());
            for (AuditRecord a : records) {
                assertEquals(AuditRecord.Seal.VALID, a.seal(), records.toString());
                assertEquals("alice", a.operator(), records.toString());
                assertEquals(fences.get(a.name()), a.oldFence(), records.toString());
                assertTrue(a.oldHolder().startsWith("app @ "), records.toString());
            }
        }
    }

    /**
     * force-release.lua returns its record as a nested array, beside the holder's fields: a US or a backslash
     * inside a value survives, and {@code holder()} holds the holder's fields only.
     */
    @Test
    void theScriptsRecordKeepsSeparatorsAndBackslashesInValues() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        String odd = "ali\u001fce\\u\\"; // a US, then a backslash and u, then a backslash at the end
        try (LockManager app =
                        LockManager.builder().cluster(uris).application("app").build();
                RedisDeployment redis = StoreFactory.create(
                        StoreFactory.Topology.CLUSTER,
                        REDIS.uris().stream().map(RedisUri::parse).toList(),
                        new KeySpace("lock:"),
                        new ConnectionSettings(Duration.ofSeconds(2), 8, null),
                        60_000,
                        false)) {
            app.acquire("packed", LockOptions.ttl(Duration.ofSeconds(30)));
            Map<String, String> audit = new LinkedHashMap<>();
            audit.put("name", "packed");
            audit.put("operator", odd);
            audit.put("empty", "");
            ForceReleaseScript.Reply r = redis.first().forceRelease("packed", "", 0, audit, 1_000);

            Map<String, String> record = r.auditRecord();

            Map<String, String> history = redis.first()
                    .redis()
                    .xrange(redis.first().keySpace().history("packed"), (StreamEntryID) null, null)
                    .get(0)
                    .getFields();
            Map<String, String> expected = new LinkedHashMap<>(history);
            expected.remove("type");
            assertEquals(expected, record);
            assertEquals(odd, record.get("operator"));
            assertEquals("", record.get("empty"));
            assertEquals(List.of("fence", "h"), List.copyOf(r.holder().keySet()), "the holder's fields only");
        }
    }

    private static List<StreamEntry> audited(RedisDeployment redis) {
        return redis.first().redis().xrange(KeySpace.AUDIT, (StreamEntryID) null, null).stream()
                .filter(e -> "copy:once".equals(e.getFields().get("name")))
                .toList();
    }
}
