package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LockSearchTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int LOCKS = 3_000;
    private static LockManager locks;
    private static AdminService service;

    @BeforeAll
    static void start() {
        locks = LockManager.builder().redis(REDIS.uri()).application("bulk-app").build();
        for (int i = 0; i < LOCKS; i++) {
            locks.acquire("bulk:" + i, LockOptions.ttl(Duration.ofMinutes(10)).autoRefresh(false));
        }
        service = new AdminService(locks.inspector(), 50).withRedis(locks.describeRedis());
    }

    @AfterAll
    static void stop() {
        locks.close();
    }

    @Test
    void aSparseFilterScansTheWholeKeySpaceAndFindsEveryMatch() throws Exception {
        LockSearch s = service.search(new LockQuery("bulk:299", ""), 50, Optional.empty());
        LockSearch.Snapshot done = s.awaitSettled(Duration.ofSeconds(30));
        assertTrue(done.complete(), done.toString());
        assertEquals(
                List.of(
                        "bulk:299",
                        "bulk:2990",
                        "bulk:2991",
                        "bulk:2992",
                        "bulk:2993",
                        "bulk:2994",
                        "bulk:2995",
                        "bulk:2996",
                        "bulk:2997",
                        "bulk:2998",
                        "bulk:2999"),
                done.locks().stream().map(LockInfo::name).sorted().toList());
        assertEquals(1.0, done.scanned().getAsDouble());
        long dbsize = Long.parseLong(REDIS.node(0).command("DBSIZE").trim());
        assertEquals(dbsize, done.keyCount().getAsLong(), "the key space: DBSIZE");
        assertEquals(done.keyCount(), done.keysScanned(), "every key seen");
    }

    @Test
    void aFullPageStopsTheScanAndLoadingMoreGoesOnFromItsCursorWithoutRepeats() throws Exception {
        LockSearch.Snapshot first =
                service.search(new LockQuery("bulk:", ""), 50, Optional.empty()).awaitSettled(Duration.ofSeconds(30));
        assertTrue(first.full() && !first.complete(), first.toString());
        assertTrue(
                first.locks().size() >= 50,
                "a page, and the rest of its last SCAN batch: " + first.locks().size());
        double part = first.scanned().getAsDouble();
        assertTrue(part > 0 && part < 1, "share scanned " + part);
        LockSearch.Snapshot all = service.search(new LockQuery("bulk:", ""), LOCKS + 10, Optional.of(first))
                .awaitSettled(Duration.ofSeconds(30));
        assertTrue(all.complete(), all.toString().substring(0, 200));
        assertEquals(LOCKS, all.locks().stream().map(LockInfo::name).distinct().count());
    }

    @Test
    void aNameTypedInFullIsReadDirectlyFirst() throws Exception {
        LockSearch.Snapshot s = service.search(new LockQuery("bulk:1234", ""), 1, Optional.empty())
                .awaitSettled(Duration.ofSeconds(30));
        assertTrue(s.full(), s.toString());
        assertEquals("bulk:1234", s.locks().get(0).name());
        assertFalse(s.complete(), "found before any scan");
    }

    @Test
    void theScanCursorTellsTheShareSeen() {
        LockSearch one = new LockSearch(null, LockQuery.all(), 1, 1, Optional.empty());
        assertEquals(0.0, one.scanned("0").getAsDouble());
        assertEquals(0.5, one.scanned("0:1").getAsDouble(), 1e-9, "the top bit reversed: half the table");
        assertEquals(0.25, one.scanned("0:2").getAsDouble(), 1e-9);
        assertEquals(1.0, one.scanned(null).getAsDouble());
        LockSearch two = new LockSearch(null, LockQuery.all(), 1, 2, Optional.empty());
        assertEquals(0.75, two.scanned("1:1").getAsDouble(), 1e-9, "the second of two nodes, half of it");
        assertTrue(
                new LockSearch(null, LockQuery.all(), 1, 0, Optional.empty())
                        .scanned("1:1")
                        .isEmpty(),
                "Cluster: unknown");
        // with each node's DBSIZE: the nodes before in full, this one's share of its own keys
        List<Long> redlock = List.of(1_000L, 3_000L);
        assertEquals(0, LockSearch.keysScanned("0", redlock).getAsLong());
        assertEquals(500, LockSearch.keysScanned("0:1", redlock).getAsLong(), "half the first node");
        assertEquals(
                1_000 + 750, LockSearch.keysScanned("1:2", redlock).getAsLong(), "the first, a quarter of the second");
        assertEquals(4_000, LockSearch.keysScanned(null, redlock).getAsLong(), "all");
        assertTrue(LockSearch.keysScanned("2:1", redlock).isEmpty(), "a node the counts do not know");
        assertTrue(LockSearch.keysScanned("0:1", List.of()).isEmpty(), "no counts");
        assertEquals(5, LockSearch.targets("redlock[redis://a:1, redis://b:2, redis://c:3, redis://d:4, redis://e:5]"));
        assertEquals(1, LockSearch.targets("redis://127.0.0.1:6379"));
        assertEquals(0, LockSearch.targets("cluster[redis://127.0.0.1:7000]"));
    }
}
