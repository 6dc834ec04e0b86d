package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.StreamEntry;

/**
 * {@link dev.lockwarden.LockInspector#forceRelease(LockInfo, String)}: releases only the acquisition
 * the operator saw, in one script per node, with the audit record and the lock's history written by
 * that script. Run on one node, Redlock and Cluster.
 */
abstract class AbstractSafeForceReleaseTest {
    protected static final LockOptions HELD = LockOptions.ttl(Duration.ofSeconds(30));
    protected LockManager first;
    protected LockManager second;
    protected LockManager dashboard;

    protected abstract RedisServerExtension servers();

    protected abstract LockManager.Builder target(LockManager.Builder builder);

    /**
     * Returns once {@code name}'s release has reached every node. A release returns when its store
     * confirms it (on Redlock: a majority), so without this a force-release sent at once could meet a
     * node the release has not reached yet and, rightly, release and audit the acquisition there.
     */
    protected void awaitReleasedEverywhere(String name) {}

    @BeforeEach
    void start() {
        servers().flushAll();
        first = target(LockManager.builder()).application("first").build();
        second = target(LockManager.builder()).application("second").build();
        dashboard = target(LockManager.builder()).application("dashboard").build();
    }

    @AfterEach
    void stop() {
        for (LockManager m : new LockManager[] {first, second, dashboard}) {
            m.close();
        }
    }

    @Test
    void aLockThatChangedHandsSinceTheOperatorLookedIsNotReleased() {
        LockHandle old = first.acquire("safe:a", HELD);
        LockInfo seen = dashboard.inspector().get("safe:a").orElseThrow();
        old.release();
        awaitReleasedEverywhere("safe:a");
        try (LockHandle now = second.acquire("safe:a", HELD)) {
            long fenceBefore = dashboard.inspector().fenceOf("safe:a");
            ForceReleaseResult r = dashboard.inspector().forceRelease(seen, "alice");

            assertFalse(r.released(), r.toString());
            LockInfo after = dashboard.inspector().get("safe:a").orElseThrow();
            assertEquals("second", after.holder().application(), "the new holder keeps the lock");
            assertEquals(now.fencingToken(), after.fencingToken());
            assertTrue(now.isHeld());
            assertEquals(fenceBefore, dashboard.inspector().fenceOf("safe:a"), "no fence bump");
            assertEquals(0, auditRecords("safe:a").size(), "no audit record");
        }
    }

    @Test
    void aLockReleasedMeanwhileIsNotReleasedAgainNorAudited() {
        LockHandle old = first.acquire("safe:b", HELD);
        LockInfo seen = dashboard.inspector().get("safe:b").orElseThrow();
        old.release();
        awaitReleasedEverywhere("safe:b");
        assertFalse(dashboard.inspector().forceRelease(seen, "alice").released());
        assertEquals(0, auditRecords("safe:b").size());
    }

    @Test
    void theSeenAcquisitionIsReleasedAtomicallyWithAuditRecordHistoryAndHolderNotice() throws Exception {
        LockHandle held = first.acquire("safe:c", LockOptions.ttl(Duration.ofMillis(900)));
        CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
        held.onLost(lost::complete);
        LockInfo seen = dashboard.inspector().get("safe:c").orElseThrow();
        assertEquals(40, seen.tokenId().length(), "SHA-1 hex of the token, not the token");

        ForceReleaseResult r = dashboard.inspector().forceRelease(seen, "alice");

        assertTrue(r.released(), r.toString());
        assertEquals(held.fencingToken(), r.oldFence());
        assertTrue(r.newFence() > r.oldFence());
        assertTrue(dashboard.inspector().get("safe:c").isEmpty());
        assertEquals("safe:c", lost.get(5, TimeUnit.SECONDS).lockName(), "the holder learns at its next refresh");
        List<Map<String, String>> audit = auditRecords("safe:c");
        assertEquals(1, audit.size(), audit.toString());
        Map<String, String> a = audit.get(0);
        assertEquals("alice", a.get("operator"));
        assertEquals(Long.toString(held.fencingToken()), a.get("oldFence"));
        assertEquals(Long.toString(r.newFence()), a.get("newFence"));
        assertEquals("first", a.get("holder.app"));
        assertTrue(
                a.values().stream().noneMatch(v -> v.length() >= 32 && !v.equals(a.get("oldToken"))),
                "no token in " + a);
        List<LockEvent> events = dashboard.inspector().events("safe:c");
        assertTrue(
                events.stream()
                        .anyMatch(e -> e.type().equals("force-release")
                                && "alice".equals(e.fields().get("operator"))),
                events.toString());
        try (LockHandle next = second.acquire("safe:c", HELD)) {
            assertTrue(next.fencingToken() > held.fencingToken());
        }
    }

    /**
     * Writes a foreign value (a string) at {@code key}, as any program with write access could. On one node
     * or a cluster: there; over Redlock: on one node only (see {@link RedlockSafeForceReleaseTest}).
     */
    protected Runnable writeForeignString(String key) {
        try (UnifiedJedis c = auditReader()) {
            c.set(key, "x");
        }
        return () -> {
            try (UnifiedJedis c = auditReader()) {
                c.del(key);
            }
        };
    }

    /** Whether every node holding the lock still holds it with the same value (token, fence, holder). */
    protected void assertStillHeldAsBefore(String name, LockHandle held, long fenceBefore) {
        assertTrue(held.isHeld(), "the holder still holds " + name);
        held.checkHeld();
        LockInfo now = dashboard.inspector().get(name).orElseThrow(() -> new AssertionError(name + " is gone"));
        assertEquals(held.fencingToken(), now.fencingToken());
        assertEquals(fenceBefore, dashboard.inspector().fenceOf(name), "the fence counter was not bumped");
    }

    /**
     * A key the force-release writes holds a value of another type (another program SET it): the script reads every
     * key's type before its first write, so the force-release throws naming the key and its type, and nothing is
     * written: the lock is still held, its fence unchanged, no history, audit record or marker.
     * <p>
     * The control: force-release.lua without its type checks (as before) deleted the lock and bumped the fence,
     * then failed at its XADD into a wrong-typed stream, and Redis kept those earlier writes: run against that
     * script on one node this test fails with "safe:wrong-... is gone" for the audit and history streams (lock
     * deleted while the holder's handle still said held: not told; no audit record), and for the :info and
     * :forced keys the old script released the lock and deleted the foreign value without a word.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lockwarden:audit", "lock:{%s}:history", "lock:{%s}:forced", "lock:{%s}:info"})
    void aKeyOfAnotherTypeStopsTheForceReleaseBeforeAnythingIsWritten(String pattern) {
        String name = "safe:wrong-" + Math.abs(pattern.hashCode() % 1000);
        String key = pattern.formatted(name);
        LockHandle held = first.acquire(name, HELD);
        LockInfo seen = dashboard.inspector().get(name).orElseThrow();
        long fenceBefore = dashboard.inspector().fenceOf(name);
        Runnable undo = writeForeignString(key);

        LockStoreException e = assertThrows(
                LockStoreException.class, () -> dashboard.inspector().forceRelease(seen, "alice"));

        assertStillHeldAsBefore(name, held, fenceBefore);
        assertTrue(e.getMessage().contains(key + " is a string, not a "), e.getMessage());
        assertTrue(e.getMessage().contains("another program wrote it; DEL it or rename it"), e.getMessage());
        assertTrue(e.getMessage().contains("Nothing was changed"), e.getMessage());
        assertThrows(LockStoreException.class, () -> dashboard.inspector().forceRelease(name, "alice"));
        assertStillHeldAsBefore(name, held, fenceBefore);
        if (!pattern.contains("history")) {
            assertTrue(dashboard.inspector().events(name).stream()
                    .noneMatch(ev -> ev.type().equals("force-release")));
        }
        undo.run();
        assertEquals(0, auditRecords(name).size(), "no audit record");
        ForceReleaseResult r = dashboard.inspector().forceRelease(seen, "alice"); // the fix the message names
        assertTrue(r.released(), r.toString());
        assertEquals(1, auditRecords(name).size());
    }

    /** A client of the node (or cluster) where the dashboard reads the audit stream. */
    protected UnifiedJedis auditReader() {
        java.net.URI u = java.net.URI.create(servers().uris().get(0));
        return RedisClient.create(u.getHost(), u.getPort());
    }

    protected List<Map<String, String>> auditRecords(String name) {
        try (UnifiedJedis c = auditReader()) {
            List<StreamEntry> all = c.xrange("lockwarden:audit", (StreamEntryID) null, (StreamEntryID) null);
            return all.stream()
                    .map(StreamEntry::getFields)
                    .filter(f -> name.equals(f.get("name")))
                    .toList();
        }
    }
}
