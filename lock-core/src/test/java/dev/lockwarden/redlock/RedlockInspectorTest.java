package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.PageRequest;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The inspector over Redlock: which nodes hold a lock, each lock listed once, force-release on every node. */
class RedlockInspectorTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    private static final LockOptions TEN_SECONDS = LockOptions.ttl(Duration.ofSeconds(10));
    private LockManager locks;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder()
                .redlock(REDIS.uris().toArray(String[]::new))
                .timeout(Duration.ofSeconds(1))
                .build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
    }

    @Test
    void showsTheNodesHoldingEachLockAndListsItOnce() {
        try (LockHandle h = locks.acquire("insp:a", TEN_SECONDS);
                LockHandle g = locks.acquire("insp:b", TEN_SECONDS)) {
            settledOnEveryNode("insp:a");
            LockInfo info = locks.inspector().get("insp:a").orElseThrow();
            assertEquals(new HashSet<>(REDIS.uris()), new HashSet<>(info.nodes()));
            assertEquals(h.fencingToken(), info.fencingToken());
            List<LockInfo> listed = locks.inspector()
                    .list(LockFilter.prefix("insp:"), PageRequest.first(100))
                    .locks();
            assertEquals(2, listed.size(), "each lock once, not once per node: " + listed);

            REDIS.node(2).kill();
            List<String> after = locks.inspector().get("insp:a").orElseThrow().nodes();
            assertEquals(4, after.size(), after.toString());
            assertTrue(!after.contains(REDIS.node(2).uri()));
        }
    }

    @Test
    void forceReleaseReachesEveryNode() {
        LockHandle h = locks.acquire("insp:stuck", TEN_SECONDS);
        settledOnEveryNode("insp:stuck");
        ForceReleaseResult r = locks.inspector().forceRelease("insp:stuck", "alice");
        assertTrue(r.released());
        assertEquals(h.fencingToken(), r.oldFence());
        for (RedisNode node : REDIS.nodes()) {
            assertEquals("0", node.command("EXISTS", "lock:{insp:stuck}"), node + " still holds it");
            assertEquals(Long.toString(r.newFence()), node.command("GET", "lock:{insp:stuck}:fence"), node.toString());
        }
        assertTrue(locks.inspector().get("insp:stuck").isEmpty());
    }

    @Test
    void aNodeShowingAHigherPhaseOneFenceNeitherChangesTheShownFenceNorBlocksTheRelease() {
        LockHandle h = locks.acquire("insp:late", TEN_SECONDS);
        settledOnEveryNode("insp:late");
        // a node that answered phase 1 later read a later clock: its holder info shows a higher fence
        RedisNode late = REDIS.node(4);
        late.command("HSET", "lock:{insp:late}:info", "fence", Long.toString(h.fencingToken() + 2_000));
        LockInfo seen = locks.inspector().get("insp:late").orElseThrow();
        assertEquals(h.fencingToken(), seen.fencingToken(), "the fence most nodes agree on is the token handed out");

        ForceReleaseResult r = locks.inspector().forceRelease(seen, "alice");
        assertTrue(r.released());
        assertEquals(h.fencingToken(), r.oldFence());
        for (RedisNode node : REDIS.nodes()) {
            assertEquals("0", node.command("EXISTS", "lock:{insp:late}"), node + " still holds it");
        }
    }

    @Test
    void eventsAndActivityComeFromTheNextNodeWhenTheFirstIsDownAndFailOnlyWhenNoneAnswers() {
        try (LockHandle h = locks.acquire("insp:first-down", TEN_SECONDS)) {
            settledOnEveryNode("insp:first-down");
            REDIS.node(0).kill();
            List<LockEvent> events = locks.inspector().events("insp:first-down");
            assertTrue(
                    events.stream().anyMatch(e -> e.type().equals("acquire")),
                    "the current holder's acquire: " + events);
            locks.inspector().activity(Duration.ofMinutes(5)); // node 1 answers; node 0's error is not the outcome
        }
        REDIS.nodes().forEach(RedisNode::kill);
        LockStoreException none =
                assertThrows(LockStoreException.class, () -> locks.inspector().activity(Duration.ofMinutes(5)));
        assertTrue(
                none.getMessage()
                        .contains(REDIS.node(0).host() + ":" + REDIS.node(0).port()),
                none.getMessage());
        assertEquals(
                4, none.getSuppressed().length, "every other node's failure is kept: " + List.of(none.getSuppressed()));
    }

    /**
     * acquire returns once a majority granted the lock; the other nodes' grants may still be on their
     * way. These tests are about a lock held on every node, so they wait (bounded) until it is.
     */
    private static void settledOnEveryNode(String name) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (RedisNode node : REDIS.nodes()) {
            while (!"1".equals(node.command("EXISTS", "lock:{" + name + "}"))) {
                assertTrue(System.nanoTime() < deadline, node + " never got " + name);
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
            }
        }
    }
}
