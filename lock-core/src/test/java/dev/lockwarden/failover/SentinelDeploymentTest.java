package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.PageRequest;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * {@code LockManager.builder().sentinel(...)} on a real Sentinel group (master, two replicas, three
 * sentinels): the lock API and the inspector on the master the sentinels name, and the same manager
 * following the master through a failover, its pub/sub subscription included. One group for the class;
 * the failover runs last.
 */
@Timeout(180)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelDeploymentTest {
    private static final LockOptions TEN_SECONDS = LockOptions.ttl(Duration.ofSeconds(10));
    private static RedisSentinelGroup group;
    private static final Clients clients = new Clients();

    @BeforeAll
    static void start() {
        group = new RedisSentinelGroup(false).start();
    }

    @AfterAll
    static void stop() {
        clients.close();
        if (group != null) {
            group.close();
        }
    }

    @Test
    @Order(1)
    void acquireReleaseFenceWaitAndInspectOnTheMaster() throws Exception {
        RedisNode master = group.master();
        LockManager a = clients.onSentinel("sentinel-a", group);
        LockManager b = clients.onSentinel("sentinel-b", group);
        assertEquals(
                "sentinel[mymaster@" + String.join(",", group.sentinelUris()) + "] master 127.0.0.1:" + master.port(),
                a.describeRedis());

        LockHandle held = a.acquire("sentinel:one", TEN_SECONDS);
        assertTrue(held.fencingToken() > 0);
        assertEquals("1", master.command("EXISTS", "lock:{sentinel:one}"), "the lock is on the master");
        assertTrue(b.tryAcquire("sentinel:one", TEN_SECONDS).isEmpty(), "busy for the other manager");

        LockInfo info = b.inspector().get("sentinel:one").orElseThrow();
        assertEquals("sentinel-a", info.holder().application());
        assertEquals(held.fencingToken(), info.fencingToken());
        List<LockInfo> listed = b.inspector()
                .list(LockFilter.prefix("sentinel:"), PageRequest.first(100))
                .locks();
        assertEquals(
                List.of("sentinel:one"), listed.stream().map(LockInfo::name).toList());

        // a waiter on the other manager is woken by the release message
        CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(
                () -> b.acquire("sentinel:one", TEN_SECONDS.waitUpTo(Duration.ofSeconds(8))));
        Thread.sleep(300);
        long released = System.nanoTime();
        held.release();
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        long woken = (System.nanoTime() - released) / 1_000_000;
        System.out.printf("sentinel: waiter had the lock %d ms after the release%n", woken);
        assertTrue(woken < 1_000, "woken " + woken + " ms after the release");
        assertTrue(next.fencingToken() > held.fencingToken());

        ForceReleaseResult forced = a.inspector().forceRelease("sentinel:one", "test");
        assertTrue(forced.released(), forced.toString());
        assertEquals("0", master.command("EXISTS", "lock:{sentinel:one}"), "force-released on the master");
        assertTrue(a.inspector().get("sentinel:one").isEmpty());
    }

    @Test
    @Order(2)
    void anUnknownMasterNameFailsTheBuild() {
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .sentinel("nosuchmaster", group.sentinelUris().toArray(String[]::new))
                        .timeout(Duration.ofMillis(500))
                        .shutdownHook(false)
                        .build());
        assertTrue(e.getMessage().contains("nosuchmaster seems to be not monitored"), e.getMessage());
        assertTrue(e.getMessage().contains("monitor a master named 'nosuchmaster'"), e.getMessage());
    }

    @Test
    @Order(3)
    void theSameManagerFollowsTheMasterThroughAFailover() throws Exception {
        LockManager before = clients.onSentinel("before-failover", group);
        before.acquire("sentinel:two", TEN_SECONDS).release();

        RedisNode old = group.killMaster();
        long killed = System.nanoTime();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        System.out.printf("sentinel: promotion %d ms after SIGKILL%n", (System.nanoTime() - killed) / 1_000_000);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        LockHandle after = null;
        while (after == null && System.nanoTime() < deadline) {
            try {
                after = before.acquire("sentinel:two", TEN_SECONDS);
            } catch (LockStoreException stillOnTheOldMaster) {
                Thread.sleep(50);
            }
        }
        assertNotNull(after, "the manager built before the failover never reached the new master");
        System.out.printf(
                "sentinel: first acquisition on the new master %d ms after SIGKILL%n",
                (System.nanoTime() - killed) / 1_000_000);
        assertEquals("1", promoted.command("EXISTS", "lock:{sentinel:two}"), "the lock is on the new master");
        assertTrue(before.describeRedis().endsWith(" master 127.0.0.1:" + promoted.port()), before.describeRedis());

        after.release();

        // the wake-up subscription of the manager built before the failover moved to the new master too
        LockManager other = clients.onSentinel("after-failover", group);
        LockHandle blocking = other.acquire("sentinel:two", TEN_SECONDS);
        CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(
                () -> before.acquire("sentinel:two", TEN_SECONDS.waitUpTo(Duration.ofSeconds(8))));
        assertTrue(
                subscribers(promoted, "lock:{sentinel:two}:released") >= 1,
                "the waiter's manager does not listen on the new master");
        long released = System.nanoTime();
        blocking.release();
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        long woken = (System.nanoTime() - released) / 1_000_000;
        System.out.printf("sentinel: after the failover a waiter had the lock %d ms after the release%n", woken);
        assertTrue(woken < 1_000, "woken " + woken + " ms after the release");
        assertTrue(next.fencingToken() > blocking.fencingToken());
        next.release();
    }

    /** How many connections listen on {@code channel} on {@code node}, within 3 s. */
    static long subscribers(RedisNode node, String channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        long n = 0;
        while (n == 0 && System.nanoTime() < deadline) {
            n = Long.parseLong(node.command("PUBSUB", "NUMSUB", channel).split("\n")[1]);
            Thread.sleep(20);
        }
        return n;
    }
}
