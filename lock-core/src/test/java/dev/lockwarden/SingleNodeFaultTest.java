package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.store.NodeException;
import dev.lockwarden.store.NodeTimeoutException;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Redis dies, stalls and comes back while locks are held and waited for. */
class SingleNodeFaultTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private LockManager manager(String app) {
        return LockManager.builder()
                .redis(REDIS.uri())
                .application(app)
                .timeout(Duration.ofMillis(500))
                .build();
    }

    @Test
    void redisKilledWhileHeldLosesTheHandleWithinTtlAndAcquireSaysStoreNotBusy() throws Exception {
        try (LockManager locks = manager("fault")) {
            LockHandle h = locks.acquire("fault:kill", LockOptions.ttl(Duration.ofMillis(1_500)));
            CountDownLatch lost = new CountDownLatch(1);
            h.onLost(e -> lost.countDown());
            long killedAt = System.nanoTime();
            REDIS.node(0).kill();
            assertTrue(lost.await(3, TimeUnit.SECONDS), "handle not lost after Redis died");
            long lostAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertTrue(lostAfterMs <= 1_500 + 300, "lost only after " + lostAfterMs + " ms, TTL is 1500 ms");
            assertFalse(h.isHeld());
            assertThrows(LockLostException.class, h::checkHeld);

            long t0 = System.nanoTime();
            LockStoreException e = assertThrows(
                    LockStoreException.class,
                    () -> locks.acquire(
                            "fault:other",
                            LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(10))));
            assertTrue(
                    e.getMessage()
                            .contains(REDIS.node(0).host() + ":" + REDIS.node(0).port()),
                    e.getMessage());
            assertTrue(
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 3_000,
                    "Redis down must fail fast, not wait");
            assertThrows(LockStoreException.class, () -> locks.tryAcquire("fault:other", LockOptions.defaults()));
        }
    }

    @Test
    void managerRecoversAfterRedisRestartWithoutAppRestart() throws Exception {
        try (LockManager a = manager("a");
                LockManager b = manager("b")) {
            LockOptions opts = LockOptions.ttl(Duration.ofSeconds(10));
            // b's wake-up connection is live before the restart
            LockHandle first = a.acquire("fault:restart", opts);
            CompletableFuture<LockHandle> w = CompletableFuture.supplyAsync(
                    () -> b.acquire("fault:restart", opts.waitUpTo(Duration.ofSeconds(5))));
            Thread.sleep(200);
            first.release();
            w.get(5, TimeUnit.SECONDS).release();

            REDIS.node(0).kill();
            assertThrows(LockStoreException.class, () -> a.acquire("fault:restart", opts));
            REDIS.node(0).restart();

            LockHandle again = a.acquire("fault:restart", opts);
            assertTrue(again.isHeld());
            // pub/sub reconnected: a waiter with a 5 s fallback interval is still woken at once
            LockOptions waiting = opts.waitUpTo(Duration.ofSeconds(20)).retryInterval(Duration.ofSeconds(5));
            CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
                LockHandle got = b.acquire("fault:restart", waiting);
                long t = System.nanoTime();
                got.release();
                return t;
            });
            Thread.sleep(1_500); // time for the wake-up connection to come back
            long releasedAt = System.nanoTime();
            again.release();
            long latencyMs = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
            assertTrue(latencyMs < 500, "waiter woke " + latencyMs + " ms after release: pub/sub did not reconnect");
        }
    }

    @Test
    void stalledRedisFailsWithinTheTimeoutInsteadOfHanging() throws Exception {
        try (LockManager locks = manager("stall")) {
            REDIS.node(0).pause();
            try {
                long t0 = System.nanoTime();
                assertThrows(
                        LockStoreException.class,
                        () -> locks.acquire("fault:stall", LockOptions.ttl(Duration.ofSeconds(5))));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < 2_000, "acquire against a stalled Redis took " + ms + " ms (timeout 500 ms)");
            } finally {
                REDIS.node(0).resume();
            }
            try (LockHandle h = locks.acquire("fault:stall-after", LockOptions.ttl(Duration.ofSeconds(5)))) {
                assertTrue(h.isHeld());
            }
        }
    }

    @Test
    void aStalledNodeIsATimeoutNamingThatNodeNeverBusyAndAWaitingAcquireRetriesItWithinItsBudget() throws Exception {
        try (LockManager locks = manager("stall-typed")) {
            REDIS.node(0).pause(); // SIGSTOP: the socket stays open, replies never come
            try {
                LockStoreException e = assertThrows(
                        LockStoreException.class,
                        () -> locks.acquire("fault:typed", LockOptions.ttl(Duration.ofSeconds(5))));
                NodeTimeoutException slow = assertInstanceOf(NodeTimeoutException.class, e, "a stalled node: " + e);
                assertEquals(REDIS.uri(), slow.node(), "the error names the node");
                assertTrue(
                        e.getMessage()
                                .contains(REDIS.node(0).host() + ":"
                                        + REDIS.node(0).port()),
                        e.getMessage());

                // slow, maybe not down: a waiting acquire retries within its wait budget
                CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> locks.acquire(
                        "fault:typed", LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(8))));
                Thread.sleep(1_500); // three times the 500 ms timeout: at least one attempt timed out
                assertFalse(waiting.isDone(), "the waiting acquire gave up on a stalled node: " + waiting);
                REDIS.node(0).resume();
                try (LockHandle h = waiting.get(8, TimeUnit.SECONDS)) {
                    assertTrue(h.isHeld());
                }
            } finally {
                REDIS.node(0).resume();
            }
        }
    }

    @Test
    void aDeadNodeIsANodeExceptionNamingIt() {
        try (LockManager locks = manager("dead-typed")) {
            REDIS.node(0).kill();
            LockStoreException e = assertThrows(
                    LockStoreException.class, () -> locks.tryAcquire("fault:dead", LockOptions.defaults()));
            NodeException down = assertInstanceOf(NodeException.class, e, "a dead node: " + e);
            assertFalse(down instanceof NodeTimeoutException, "refused connections are no timeout: " + e);
            assertEquals(REDIS.uri(), down.node());
        }
    }
}
