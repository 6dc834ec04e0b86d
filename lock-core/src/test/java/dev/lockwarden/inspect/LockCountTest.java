package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockCount;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LuaScript;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;

/**
 * {@link dev.lockwarden.LockInspector#count}: every held lock once, on one node, a cluster and Redlock; fence
 * counters, :info keys, free locks and other keys are not counted; a budget that runs out says so.
 */
class LockCountTest {
    static final LockOptions HELD = LockOptions.ttl(Duration.ofSeconds(60));
    static final Duration PLENTY = Duration.ofSeconds(20);

    @Nested
    class SingleNode {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

        @Test
        void tenThousandLocksCountedExactlyAndACutBudgetSaysSo() {
            REDIS.flushAll();
            acquireMany(REDIS.node(0), 10_000);
            REDIS.node(0).command("SET", "other:{x}", "1"); // not a lock key
            try (LockManager m = LockManager.builder().redis(REDIS.uri()).build()) {
                LockHandle extra = m.acquire("extra", HELD);
                m.acquire("freed", HELD).release(); // its fence counter stays, the lock is free
                long t0 = System.nanoTime();
                LockCount c = m.inspector().count(PLENTY);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("counted %d locks in %d ms%n", c.count(), ms);
                assertEquals(new LockCount(10_001, true), c);
                assertKeyCounts(m, REDIS.nodes(), false);

                extra.release();
                assertEquals(new LockCount(10_000, true), m.inspector().count(PLENTY), "a released lock is gone");

                LockCount none = m.inspector().count(Duration.ZERO);
                assertEquals(new LockCount(0, false), none, "no time, no scan: and it says it is not complete");
                LockCount cut = m.inspector().count(Duration.ofNanos(1));
                assertFalse(cut.complete(), cut.toString());
                assertTrue(cut.count() < 10_000, cut.toString());
            }
        }
    }

    @Nested
    class Cluster {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

        @Test
        void locksOnEveryMasterCountOnce() {
            REDIS.flushAll();
            try (LockManager m = LockManager.builder()
                    .cluster(REDIS.uris().toArray(String[]::new))
                    .build()) {
                for (int i = 0; i < 300; i++) {
                    m.acquire("c:" + i, HELD);
                }
                m.acquire("c:freed", HELD).release();
                assertEquals(3, REDIS.nodes().size());
                for (RedisNode n : REDIS.nodes()) { // so a count of one master would fall short
                    assertTrue(Long.parseLong(n.command("DBSIZE").trim()) > 0, "a master without locks: " + n);
                }
                assertEquals(new LockCount(300, true), m.inspector().count(PLENTY));
                assertKeyCounts(m, REDIS.nodes(), true);
            }
        }
    }

    @Nested
    class Redlock {
        @RegisterExtension
        static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

        @Test
        void aLockOnEveryNodeCountsOnceAndAMinorityLeftoverNotAtAll() {
            REDIS.flushAll();
            try (LockManager m = LockManager.builder()
                    .redlock(REDIS.uris().toArray(String[]::new))
                    .build()) {
                for (int i = 0; i < 50; i++) {
                    m.acquire("r:" + i, HELD);
                }
                acquireMany(REDIS.node(1), 7); // on one node of three: no quorum, not held
                assertEquals(new LockCount(50, true), m.inspector().count(PLENTY));

                acquireMany(REDIS.node(2), 7); // now on two of three
                assertEquals(new LockCount(57, true), m.inspector().count(PLENTY));
                assertKeyCounts(m, REDIS.nodes(), false);
            }
        }
    }

    /**
     * {@link dev.lockwarden.LockInspector#keyCounts}: each scanned node's DBSIZE, in node order (on a cluster in
     * the masters' order, which is not the seeds'). Read again when a key came or went meanwhile (a heartbeat).
     */
    static void assertKeyCounts(LockManager m, List<RedisNode> nodes, boolean anyOrder) {
        for (int attempt = 1; ; attempt++) {
            List<Long> before = dbSizes(nodes);
            List<Long> counted = new ArrayList<>(m.inspector().keyCounts());
            List<Long> after = dbSizes(nodes);
            if (before.equals(after) || attempt == 5) {
                if (anyOrder) {
                    before.sort(null);
                    counted.sort(null);
                }
                assertEquals(before, counted, "DBSIZE of each node");
                return;
            }
        }
    }

    private static List<Long> dbSizes(List<RedisNode> nodes) {
        List<Long> out = new ArrayList<>();
        for (RedisNode n : nodes) {
            out.add(Long.parseLong(n.command("DBSIZE").trim()));
        }
        return out;
    }

    /** The real acquire script, pipelined: the lock and fence keys a LockManager writes for bulk:0..n-1. */
    static void acquireMany(RedisNode node, int n) {
        LuaScript acquire = LuaScript.load(RedisNodeClient.class, "acquire.lua");
        try (RedisClient c = RedisClient.create(node.host(), node.port())) {
            c.scriptLoad(acquire.source());
            long now = System.currentTimeMillis();
            for (int from = 0; from < n; from += 2_000) {
                try (AbstractPipeline p = c.pipelined()) {
                    for (int i = from; i < Math.min(n, from + 2_000); i++) {
                        String name = "bulk:" + i;
                        String holder = new LockHolder("bulkjvm", "t", LockSource.API, "", now).encode();
                        acquire.queue(
                                p,
                                List.of("lock:{" + name + "}", "lock:{" + name + "}:fence"),
                                List.of("tok" + i, "600000", "604800000", "1", holder));
                    }
                    p.sync();
                }
            }
        }
    }
}
