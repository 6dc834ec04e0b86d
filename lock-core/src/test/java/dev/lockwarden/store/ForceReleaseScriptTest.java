package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;

/**
 * force-release.lua's reply as {@link ForceReleaseScript#reply} reads it: the removed holder's info hash in
 * {@code holder()} and nothing else; the record the script wrote into the lock's history, when it did not write
 * the audit stream itself, in {@code auditRecord()} (a nested array, last); null when it wrote the audit stream.
 */
class ForceReleaseScriptTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void aNestedArrayLastIsTheAuditRecordNotAHolderField() {
        List<Object> raw = List.of(
                1L, "3", "4", "1-0", "", "abc", "fence", "3", "h", "packed", List.of("oldFence", "3", "operator", ""));

        ForceReleaseScript.Reply r = ForceReleaseScript.reply(raw, null, "n");

        assertTrue(r.released());
        assertEquals(Map.of("fence", "3", "h", "packed"), r.holder());
        assertEquals(
                List.of("oldFence", "operator"), List.copyOf(r.auditRecord().keySet()), "in order");
        assertEquals("", r.auditRecord().get("operator"));
        assertEquals(r.auditRecord(), r.withAudit("2-0", null).auditRecord(), "kept with the copy's id");
    }

    /** A holder field of any name is a holder field: a string cannot stand in for the record. */
    @Test
    void withoutANestedArrayThereIsNoAuditRecord() {
        List<Object> raw = List.of(1L, "3", "4", "1-0", "2-0", "abc", "fence", "3", "\u001faudit-record", "x");

        ForceReleaseScript.Reply r = ForceReleaseScript.reply(raw, null, "n");

        assertNull(r.auditRecord());
        assertEquals(Map.of("fence", "3", "\u001faudit-record", "x"), r.holder());
        assertNull(ForceReleaseScript.reply(List.of(0L, "free", "7"), null, "n").auditRecord());
    }

    /**
     * On one node: with the audit stream the script writes it and returns no record; without it (an application's
     * user that may not write it) the record comes back, equal to the history entry, and holder() stays the holder.
     */
    @Test
    void theScriptReturnsItsRecordOnlyWhenItDidNotWriteTheAuditStream() {
        REDIS.flushAll();
        try (LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("app")
                        .shutdownHook(false)
                        .build();
                RedisNodeClient node = new RedisNodeClient(
                        redis.clients.jedis.RedisClient.create(
                                REDIS.node(0).host(), REDIS.node(0).port()),
                        REDIS.uri(),
                        new KeySpace("lock:"),
                        60_000,
                        null,
                        null)) {
            for (long auditMaxLen : new long[] {1_000, 0}) {
                String name = "reply:" + auditMaxLen;
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                Map<String, String> audit = new LinkedHashMap<>();
                audit.put("name", name);
                audit.put("operator", "alice");

                ForceReleaseScript.Reply r = node.forceRelease(name, "", 0, audit, auditMaxLen);

                assertTrue(r.released(), r.toString());
                assertEquals(List.of("fence", "h"), List.copyOf(r.holder().keySet()), r.toString());
                if (auditMaxLen > 0) {
                    assertTrue(!r.auditId().isEmpty(), r.toString());
                    assertNull(r.auditRecord(), "the script wrote the audit stream itself");
                } else {
                    assertEquals("", r.auditId(), r.toString());
                    Map<String, String> history = new LinkedHashMap<>(node.redis()
                            .xrange(node.keySpace().history(name), (StreamEntryID) null, null)
                            .get(0)
                            .getFields());
                    history.remove("type");
                    assertEquals(history, r.auditRecord());
                }
            }
        }
    }
}
