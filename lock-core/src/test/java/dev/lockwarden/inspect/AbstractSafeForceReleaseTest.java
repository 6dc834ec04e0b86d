package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
    private static final LockOptions HELD = LockOptions.ttl(Duration.ofSeconds(30));
    private LockManager first;
    private LockManager second;
    private LockManager dashboard;

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

    /** A client of the node (or cluster) where the dashboard reads the audit stream. */
    protected UnifiedJedis auditReader() {
        java.net.URI u = java.net.URI.create(servers().uris().get(0));
        return RedisClient.create(u.getHost(), u.getPort());
    }

    private List<Map<String, String>> auditRecords(String name) {
        try (UnifiedJedis c = auditReader()) {
            List<StreamEntry> all = c.xrange("lockwarden:audit", (StreamEntryID) null, (StreamEntryID) null);
            return all.stream()
                    .map(StreamEntry::getFields)
                    .filter(f -> name.equals(f.get("name")))
                    .toList();
        }
    }
}
