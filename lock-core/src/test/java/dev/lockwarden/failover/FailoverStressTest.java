package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.ClusterFailover;
import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisCluster;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import dev.lockwarden.testing.Replication;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Failovers under load: 8 clients (4 threads here, 4 in a second JVM, each with its own manager)
 * increment one database row through {@code JdbcFence} while the lock's master is failed over again
 * and again — Sentinel (SIGKILL, promotion, the old master rejoins as a replica) and Cluster
 * ({@code CLUSTER FAILOVER TAKEOVER} on the lock's slot owner). A trigger audits every accepted
 * write ({@link FenceAudit}): no write with a stale fence, no lost update, every fence after a
 * failover above every fence before it, and no call past its wait time plus a slack.
 * The control shows the audit catching a stale write that bypasses the fence after a real failover.
 */
@Timeout(360)
class FailoverStressTest {

    private static final String NAME = "ledger:stress";
    private static final String KEY = "lock:{" + NAME + "}";
    /** Failovers per deployment: 15 + 15 (about 4 minutes on a busy 2-core machine); the property lowers it. */
    private static final int FAILOVERS = Integer.getInteger("lockwarden.stress.failovers", 15);

    private static final int CLIENTS_PER_JVM = 4;
    /** Accepted writes after each failover before the next one. */
    private static final int PROGRESS = 20;

    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(20);

    @Test
    void sentinelFailoversNeverAcceptAStaleFence() throws Exception {
        try (RedisSentinelGroup group = new RedisSentinelGroup(false).start();
                FencedRow row = FencedRow.start()) {
            String topology =
                    "sentinel:" + RedisSentinelGroup.MASTER_NAME + "@" + String.join(",", group.sentinelUris());
            stress("sentinel", topology, row, FAILOVERS, () -> {
                long start = System.currentTimeMillis();
                RedisNode old = group.killMaster();
                group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
                long done = System.currentTimeMillis();
                group.rejoin(old);
                return new FencedRow.Failover("sentinel " + old.port(), start, done);
            });
        }
    }

    @Test
    void clusterTakeoversNeverAcceptAStaleFence() throws Exception {
        try (RedisCluster cluster = new RedisCluster(3, 1, RedisBinary.detect()).start();
                FencedRow row = FencedRow.start()) {
            ClusterFailover failover = ClusterFailover.of(cluster);
            String topology = "cluster:" + String.join(",", cluster.seedUris());
            stress("cluster", topology, row, FAILOVERS, () -> {
                RedisNode master = failover.masterOfKey(KEY);
                RedisNode replica = replicaOf(failover, master);
                long start = System.currentTimeMillis();
                failover.takeover(replica, Duration.ofSeconds(30));
                long done = System.currentTimeMillis();
                return new FencedRow.Failover("takeover " + master.port() + " -> " + replica.port(), start, done);
            });
        }
    }

    /** The running replica of {@code master} with its link up (a demoted master reconnects first). */
    private static RedisNode replicaOf(ClusterFailover failover, RedisNode master) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            List<RedisNode> replicas = failover.replicasOf(master);
            if (!replicas.isEmpty()
                    && "up".equals(Replication.info(replicas.get(0)).get("master_link_status"))) {
                return replicas.get(0);
            }
            assertTrue(System.nanoTime() < deadline, master + " has no replica with its link up");
            Thread.sleep(20);
        }
    }

    private void stress(String what, String topology, FencedRow row, int count, Callable<FencedRow.Failover> failOver)
            throws Exception {
        long t0 = System.nanoTime();
        FenceClient.Stats local = new FenceClient.Stats();
        List<FenceClient> clients = FenceClient.startAll(
                "here", CLIENTS_PER_JVM, id -> FenceClient.manager(topology, id), row.url(), NAME, local);
        ChildClients child = ChildClients.start(topology, row.url(), NAME, CLIENTS_PER_JVM, "child");
        List<FencedRow.Failover> failovers = new ArrayList<>();
        List<String> hanging;
        Map<String, Long> remote;
        try {
            await(
                    "all " + 2 * CLIENTS_PER_JVM + " clients write",
                    Duration.ofSeconds(30),
                    () -> row.writers() == 2L * CLIENTS_PER_JVM);
            for (int k = 0; k < count; k++) {
                FencedRow.Failover f = failOver.call();
                failovers.add(f);
                await(PROGRESS + " writes after " + f, PROGRESS_TIMEOUT, () -> row.writesAfter(f.doneMs()) >= PROGRESS);
            }
        } catch (Throwable e) {
            FenceClient.stopAll(clients);
            child.destroy();
            throw new AssertionError(e + "\nchild JVM:\n" + child.log(), e);
        }
        hanging = FenceClient.stopAll(clients);
        remote = child.stop();
        FencedRow.Report audit = row.audit();
        List<String> order = row.fenceOrder(failovers);

        Map<String, Long> total = new TreeMap<>(local.toMap());
        remote.forEach((k, v) -> total.merge(k, v, k.startsWith("max") ? Math::max : Long::sum));
        System.out.printf(
                "%s: %d failovers in %d s; accepted %d, rejected %d, lock not acquired %d, store errors %d,"
                        + " release errors %d, other errors %d; max acquire %d ms, max release %d ms, over budget %d;"
                        + " audit %s%n",
                what,
                failovers.size(),
                (System.nanoTime() - t0) / 1_000_000_000,
                total.get("accepted"),
                total.get("rejected"),
                total.get("notAcquired"),
                total.get("storeErrors"),
                total.get("releaseErrors"),
                total.get("otherErrors"),
                total.get("maxAcquireMs"),
                total.get("maxReleaseMs"),
                total.get("overBudget"),
                audit);
        String samples = "this JVM: " + local.samples;

        assertEquals(List.of(), hanging, "clients left hanging");
        assertEquals(count, failovers.size());
        assertEquals(0, audit.stale(), "writes accepted with a stale fence: " + audit.firstProblem());
        assertEquals(0, audit.breaks(), "the audit chain is broken: " + audit.firstProblem());
        assertEquals(0, audit.lost(), "lost updates: " + audit.firstProblem());
        assertEquals(audit.writes(), audit.finalValue(), "the row's value is not the number of accepted writes");
        assertEquals(total.get("accepted"), audit.writes(), "the clients' accepted writes differ from the audit");
        assertEquals(2L * CLIENTS_PER_JVM, audit.writers(), "not every client wrote");
        assertEquals(List.of(), order, "fences after a failover not above those before it (or no progress)");
        assertEquals(0, total.get("overBudget"), "calls past their wait time + " + FenceClient.SLACK + ": " + samples);
        assertEquals(0, total.get("otherErrors"), "unexpected errors: " + samples);
    }

    private interface Check {
        boolean done() throws Exception;
    }

    private static void await(String what, Duration timeout, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.done()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * The control: after a Sentinel failover that lost the lock (replication held back), two clients
     * hold it. The old holder claimed the row and read it before the failover; the new holder claims,
     * reads and writes. The old holder's fenced write is refused and the audit stays clean; the same
     * write without the fence condition is accepted and the audit flags it as stale, as a lost update
     * and as a fence below the ones before the failover.
     */
    @Test
    void theAuditFlagsAStaleWriteThatBypassesTheFence() throws Exception {
        LockOptions opts = LockOptions.ttl(Duration.ofSeconds(30));
        try (RedisSentinelGroup group = new RedisSentinelGroup(true).start();
                FencedRow row = FencedRow.start();
                Clients clients = new Clients();
                Connection a = DriverManager.getConnection(row.url());
                Connection b = DriverManager.getConnection(row.url())) {
            RedisNode old = group.master();
            group.holdReplication();
            LockHandle first = clients.on("holder-a", old).acquire(NAME, opts);
            assertTrue(FencedRow.FENCE.claim(a, FencedRow.ID, first.fencingToken()));
            long seen = FencedRow.read(a);

            // the claim's audit row must be strictly before the failover's start (the audit keeps milliseconds)
            Thread.sleep(5);
            long start = System.currentTimeMillis();
            group.killMaster();
            RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
            FencedRow.Failover f = new FencedRow.Failover("control", start, System.currentTimeMillis());
            LockManager after = clients.on("holder-b", promoted);
            try (LockHandle second = after.acquire(NAME, opts)) {
                assertTrue(first.isHeld(), "the double grant did not happen");
                assertTrue(FencedRow.FENCE.claim(b, FencedRow.ID, second.fencingToken()));
                long value = FencedRow.read(b);
                assertTrue(FencedRow.FENCE.update(
                        b, FencedRow.ID, second.fencingToken(), Map.of("val", value + 1, "writer", "b")));
            }
            assertFalse(FencedRow.FENCE.update(
                    a, FencedRow.ID, first.fencingToken(), Map.of("val", seen + 1, "writer", "a")));
            FencedRow.Report fenced = row.audit();
            assertEquals(new FencedRow.Report(1, 0, 0, 0, 1, 1, null), fenced);
            assertEquals(List.of(), row.fenceOrder(List.of(f)));

            try (PreparedStatement plain =
                    a.prepareStatement("UPDATE counter SET val = ?, fence = ?, writer = ? WHERE id = ?")) {
                plain.setLong(1, seen + 1);
                plain.setLong(2, first.fencingToken());
                plain.setString(3, "a");
                plain.setInt(4, FencedRow.ID);
                assertEquals(1, plain.executeUpdate(), "the unfenced write was refused");
            }
            FencedRow.Report bypassed = row.audit();
            System.out.println("control: fenced " + fenced + "; unfenced " + bypassed);
            assertEquals(1, bypassed.stale(), bypassed.toString());
            assertEquals(1, bypassed.lost(), bypassed.toString());
            assertTrue(bypassed.finalValue() < bypassed.writes(), bypassed.toString());
            assertEquals(1, row.fenceOrder(List.of(f)).size(), "the stale fence after the failover was not flagged");
        }
    }
}
