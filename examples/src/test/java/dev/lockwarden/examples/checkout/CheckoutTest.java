package dev.lockwarden.examples.checkout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.ExampleRun;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting acquire with a timeout, against a real redis-server; two LockManagers play two instances. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CheckoutTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private LockManager instanceA;
    private LockManager instanceB;
    private final OrderDesk desk = new OrderDesk();
    private final ExecutorService pool = Executors.newCachedThreadPool(); // not the common pool: 1 thread on 2 cores

    @BeforeEach
    void start() {
        redis.flushAll();
        instanceA =
                LockManager.builder().redis(redis.uri()).application("shop-a").build();
        instanceB =
                LockManager.builder().redis(redis.uri()).application("shop-b").build();
    }

    @AfterEach
    void stop() {
        instanceA.close();
        instanceB.close();
        pool.shutdownNow();
    }

    @Test
    void aSecondCheckoutWaitsForTheFirstAndThenGoesThrough() throws Exception {
        CheckoutService a = new CheckoutService(instanceA, desk, Duration.ofSeconds(2));
        CheckoutService b = new CheckoutService(instanceB, desk, Duration.ofSeconds(2));
        CompletableFuture<CheckoutResult> first = CompletableFuture.supplyAsync(() -> call(a, "alice", 400), pool);
        Thread.sleep(100);
        long t0 = System.nanoTime();
        CheckoutResult second = b.checkout("alice", Duration.ofMillis(10));
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(first.get().placed() && second.placed(), first.get() + " / " + second);
        assertTrue(waited >= 200, "the second waited for the first: " + waited + " ms");
        assertEquals(1, desk.maxConcurrent("alice"));
    }

    @Test
    void whenTheFirstOutlastsTheTimeoutTheUserIsToldSoAfterTheTimeout() throws Exception {
        CheckoutService a = new CheckoutService(instanceA, desk, Duration.ofSeconds(2));
        CheckoutService b = new CheckoutService(instanceB, desk, Duration.ofMillis(500));
        CompletableFuture<CheckoutResult> first = CompletableFuture.supplyAsync(() -> call(a, "bob", 3000), pool);
        Thread.sleep(100);
        long t0 = System.nanoTime();
        CheckoutResult second = b.checkout("bob", Duration.ofMillis(10));
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(second.placed());
        assertNull(second.orderId());
        assertTrue(
                second.message().startsWith("Your previous checkout is still being processed (we waited "),
                second.message());
        assertTrue(waited >= 450 && waited < 2000, "gave up after about the 500 ms timeout: " + waited + " ms");
        assertTrue(first.get().placed());
        assertEquals(1, desk.maxConcurrent("bob"));
    }

    @Test
    void manyClicksNeverOverlapPerUserButDifferentUsersRunInParallel() throws Exception {
        List<CompletableFuture<CheckoutResult>> all = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            CheckoutService s = new CheckoutService(i % 2 == 0 ? instanceA : instanceB, desk, Duration.ofSeconds(10));
            all.add(CompletableFuture.supplyAsync(() -> call(s, "carol", 100), pool));
            all.add(CompletableFuture.supplyAsync(() -> call(s, "dave-" + all.size(), 300), pool));
        }
        long t0 = System.nanoTime();
        for (CompletableFuture<CheckoutResult> f : all) {
            assertTrue(f.get().placed());
        }
        assertEquals(1, desk.maxConcurrent("carol"), "one checkout per user at a time");
        assertTrue(
                (System.nanoTime() - t0) / 1_000_000 < 6 * 300, "other users' checkouts did not queue behind carol's");
    }

    @Test
    void controlWithoutTheLockTheClicksOverlap() throws Exception {
        OrderDesk unguarded = new OrderDesk();
        List<CompletableFuture<String>> clicks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            clicks.add(CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return unguarded.place("erin", Duration.ofMillis(300));
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    pool));
        }
        for (CompletableFuture<String> c : clicks) {
            c.get();
        }
        assertTrue(unguarded.maxConcurrent("erin") > 1, "without a lock: " + unguarded.maxConcurrent("erin"));
    }

    @Test
    void theAppShowsBothOutcomes() throws Exception {
        String out = ExampleRun.main(CheckoutApp.class, redis.uri());
        String alice = out.substring(out.indexOf("alice double-clicks"), out.indexOf("bob double-clicks"));
        String bob = out.substring(out.indexOf("bob double-clicks"), out.indexOf("most checkouts"));
        // either click may reach the lock first
        assertEquals(
                2,
                alice.lines()
                        .filter(l -> l.matches("  click [12]: Order ORD-\\d+ placed\\. Thank you!"))
                        .count(),
                out);
        assertEquals(
                1,
                bob.lines()
                        .filter(l -> l.matches("  click [12]: Order ORD-\\d+ placed\\. Thank you!"))
                        .count(),
                out);
        assertEquals(
                1,
                bob.lines()
                        .filter(l -> l.matches("  click [12]: Your previous checkout is still being processed.*"))
                        .count(),
                out);
        assertTrue(out.contains("most checkouts at once: alice 1, bob 1"), out);
    }

    private static CheckoutResult call(CheckoutService s, String user, long workMillis) {
        try {
            return s.checkout(user, Duration.ofMillis(workMillis));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
