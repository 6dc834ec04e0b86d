package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** onLost listeners (own executor, exactly once) and the watchdog's and engine's warnings. */
class ListenersAndWarningsTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private LockManager locks;
    private LockManager operator;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("holder")
                .timeout(Duration.ofMillis(150))
                .shutdownHook(false)
                .build();
        operator = LockManager.builder()
                .redis(REDIS.uri())
                .application("dashboard")
                .shutdownHook(false)
                .build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
        operator.close();
    }

    @Test
    void aSlowListenerRunsOnItsOwnThreadAndDelaysNoRefreshOrHeartbeat() throws Exception {
        LockHandle live = locks.acquire("listen:live", LockOptions.ttl(Duration.ofMillis(600)));
        LockHandle doomed = locks.acquire("listen:doomed", LockOptions.ttl(Duration.ofSeconds(10)));
        AtomicReference<String> thread = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        doomed.onLost(e -> {
            thread.set(Thread.currentThread().getName());
            started.countDown();
            try {
                finish.await(10, TimeUnit.SECONDS); // a listener that blocks for seconds
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(operator.inspector().forceRelease("listen:doomed", "alice").released());
        assertTrue(doomed.extend(Duration.ofSeconds(10)) == false);
        assertTrue(started.await(5, TimeUnit.SECONDS));
        try {
            assertTrue(thread.get().startsWith("lockwarden-listener"), "listener ran on " + thread.get());
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2_000); // > 3 TTLs of the live lock
            while (System.nanoTime() < until) {
                assertTrue(live.isHeld(), "the live lock lost its refreshes while a listener blocked");
                Thread.sleep(100);
            }
            assertTrue(operator.inspector().get("listen:live").orElseThrow().holderAlive());
        } finally {
            finish.countDown();
        }
        live.release();
    }

    @Test
    void eachListenerFiresExactlyOnceEvenWhenRegisteredWhileTheLockIsLost() throws Exception {
        for (int i = 0; i < 40; i++) {
            LockHandle h = locks.acquire(
                    "once:" + i, LockOptions.ttl(Duration.ofSeconds(10)).autoRefresh(false));
            AtomicInteger early = new AtomicInteger();
            AtomicInteger racing = new AtomicInteger();
            AtomicInteger late = new AtomicInteger();
            h.onLost(e -> early.incrementAndGet());
            operator.inspector().forceRelease("once:" + i, "alice");
            CyclicBarrier go = new CyclicBarrier(3);
            Thread losers = new Thread(() -> {
                await(go);
                h.extend(Duration.ofSeconds(5)); // finds it lost
            });
            Thread loser2 = new Thread(() -> {
                await(go);
                h.extend(Duration.ofSeconds(5)); // concurrently: still one loss
            });
            losers.start();
            loser2.start();
            await(go);
            h.onLost(e -> racing.incrementAndGet());
            losers.join(5_000);
            loser2.join(5_000);
            assertFalse(h.isHeld());
            h.onLost(e -> late.incrementAndGet());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while ((early.get() == 0 || racing.get() == 0 || late.get() == 0) && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            Thread.sleep(50); // room for a wrong second call
            assertEquals(List.of(1, 1, 1), List.of(early.get(), racing.get(), late.get()), "round " + i);
        }
    }

    @Test
    void oneWarningPerLostLockNamingLockFenceHolderAndReason() throws Exception {
        try (LogCapture log = new LogCapture()) {
            LockHandle h = locks.acquire("warn:lost", LockOptions.ttl(Duration.ofMillis(600)));
            CountDownLatch lost = new CountDownLatch(1);
            h.onLost(e -> lost.countDown());
            operator.inspector().forceRelease("warn:lost", "alice");
            assertTrue(lost.await(3, TimeUnit.SECONDS));
            Thread.sleep(1_000); // later refreshes or expiry checks must not warn again
            List<String> w = log.warnings("dev.lockwarden.internal.LockEngine").stream()
                    .filter(m -> m.contains("warn:lost"))
                    .toList();
            assertEquals(1, w.size(), "warnings: " + w);
            String m = w.get(0);
            assertTrue(
                    m.contains("fence " + h.fencingToken())
                            && m.contains("holder holder@")
                            && m.contains("lost:")
                            && m.contains("force-released"),
                    m);
        }
    }

    @Test
    void watchdogWarnsOncePerLockPerOutageThenSummarises() throws Exception {
        try (LogCapture log = new LogCapture()) {
            List<LockHandle> held = List.of(
                    locks.acquire("outage:a", LockOptions.ttl(Duration.ofSeconds(3))),
                    locks.acquire("outage:b", LockOptions.ttl(Duration.ofSeconds(3))),
                    locks.acquire("outage:c", LockOptions.ttl(Duration.ofSeconds(3))));
            for (int outage = 1; outage <= 2; outage++) {
                Thread.sleep(100);
                REDIS.node(0).pause();
                try {
                    Thread.sleep(1_500); // covers the next refresh (TTL/3) and several retries (every 200 ms)
                } finally {
                    REDIS.node(0).resume();
                }
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() < until
                        && log.warnings("dev.lockwarden.internal.Watchdog").stream()
                                        .filter(m -> m.contains("recovered"))
                                        .count()
                                < outage) {
                    Thread.sleep(20);
                }
                List<String> w = log.warnings("dev.lockwarden.internal.Watchdog");
                assertEquals(
                        3L * outage,
                        w.stream().filter(m -> m.startsWith("refresh of lock")).count(),
                        "warnings: " + w + " all: "
                                + log.records.stream()
                                        .map(r -> r.getLoggerName() + " " + r.getLevel() + " " + r.getMessage())
                                        .toList());
                assertEquals(
                        outage, w.stream().filter(m -> m.contains("recovered")).count(), "summaries: " + w);
                String summary = w.get(w.size() - 1);
                assertTrue(summary.contains("affecting 3 lock(s)") && !summary.contains("affecting 0"), summary);
                for (LockHandle h : held) {
                    assertTrue(h.isHeld(), h + " lost during a 1.5 s outage with a 3 s TTL");
                }
            }
        }
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
