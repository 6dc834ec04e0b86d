package dev.lockwarden.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 10,000 virtual threads (JDK 21+; CI runs it on Java 25) contend for 50 lock names with
 * {@code waitUpTo(60s)} through one manager with the default pool of 32 connections: every one of
 * the 30,000 acquisitions succeeds (a busy local pool only costs wait time), every section's count is
 * exact, no two holders of one name overlap, within a bounded time. The control run without the lock
 * shows the same sections losing updates. Built with release 17: virtual threads are started
 * reflectively.
 */
class VirtualThreadContentionTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int THREADS = 10_000;
    private static final int NAMES = 50;
    private static final int ROUNDS = 3;
    private static final Duration BOUND = Duration.ofSeconds(150);

    private LockManager locks;

    @BeforeEach
    void setUp() {
        REDIS.flushAll();
        locks = LockManager.builder().redis(REDIS.uri()).application("vthreads").build();
    }

    @AfterEach
    void tearDown() {
        locks.close();
    }

    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService)
                    Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (NoSuchMethodException e) {
            assumeTrue(
                    false,
                    "needs JDK 21+ for virtual threads (running on " + Runtime.version()
                            + "); run with JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64");
            throw new AssertionError(e);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A section whose plain read-yield-write loses updates unless it is mutually exclusive. */
    private static final class Sections {
        final long[] counts = new long[NAMES];
        final AtomicInteger[] inside = new AtomicInteger[NAMES];
        final AtomicInteger overlaps = new AtomicInteger();

        Sections() {
            for (int i = 0; i < NAMES; i++) {
                inside[i] = new AtomicInteger();
            }
        }

        void run(int name) {
            if (inside[name].incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            long v = counts[name];
            Thread.yield(); // let another thread in, if it can get in
            counts[name] = v + 1;
            inside[name].decrementAndGet();
        }

        long total() {
            long t = 0;
            for (long c : counts) {
                t += c;
            }
            return t;
        }
    }

    @Test
    void tenThousandVirtualThreadsOnFiftyNames() throws Exception {
        ExecutorService vts = virtualThreads();
        Sections s = new Sections();
        AtomicInteger acquired = new AtomicInteger();
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        AtomicLong maxFenceViolations = new AtomicLong();
        long[] lastFence = new long[NAMES];
        LockOptions opts = LockOptions.ttl(Duration.ofSeconds(30)).waitUpTo(Duration.ofSeconds(60));
        long t0 = System.nanoTime();
        try {
            for (int t = 0; t < THREADS; t++) {
                int first = t % NAMES;
                vts.execute(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        int n = (first + r * 7) % NAMES;
                        try (LockHandle h = locks.acquire("vt:" + n, opts)) {
                            acquired.incrementAndGet();
                            if (h.fencingToken() <= lastFence[n]) {
                                maxFenceViolations.incrementAndGet();
                            }
                            lastFence[n] = h.fencingToken();
                            s.run(n);
                        } catch (RuntimeException e) {
                            errors.computeIfAbsent(
                                            e.getClass().getSimpleName() + ": " + e.getMessage(),
                                            k -> new AtomicInteger())
                                    .incrementAndGet();
                        }
                    }
                });
            }
            vts.shutdown();
            assertTrue(vts.awaitTermination(BOUND.toSeconds(), TimeUnit.SECONDS), "not done within " + BOUND);
        } finally {
            vts.shutdownNow();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.println(
                "10,000 virtual threads, 30,000 acquisitions on 50 names: " + millis + " ms, errors " + errors);
        assertEquals(Map.of(), toCounts(errors), "acquisitions that failed");
        assertEquals(THREADS * ROUNDS, acquired.get());
        assertEquals(THREADS * ROUNDS, s.total(), "lost updates");
        for (int i = 0; i < NAMES; i++) {
            assertEquals(THREADS * ROUNDS / NAMES, s.counts[i], "section " + i);
        }
        assertEquals(0, s.overlaps.get(), "overlapping holders");
        assertEquals(0, maxFenceViolations.get(), "fences not increasing in section order");
        assertTrue(millis < BOUND.toMillis());
    }

    @Test
    void platformThreadsFarBeyondThePoolSizeOnlyWait() throws Exception {
        // the JDK 17 variant: 400 threads through a pool of 4 connections
        try (LockManager small = LockManager.builder()
                .redis(REDIS.uri())
                .application("pool")
                .maxConnections(4)
                .build()) {
            ExecutorService threads = Executors.newFixedThreadPool(400);
            Sections s = new Sections();
            AtomicInteger failures = new AtomicInteger();
            LockOptions opts = LockOptions.ttl(Duration.ofSeconds(30)).waitUpTo(Duration.ofSeconds(60));
            try {
                for (int t = 0; t < 400; t++) {
                    int first = t % NAMES;
                    threads.execute(() -> {
                        for (int r = 0; r < ROUNDS; r++) {
                            int n = (first + r * 7) % NAMES;
                            try (LockHandle h = small.acquire("pt:" + n, opts)) {
                                s.run(n);
                            } catch (RuntimeException e) {
                                failures.incrementAndGet();
                                e.printStackTrace();
                            }
                        }
                    });
                }
                threads.shutdown();
                assertTrue(threads.awaitTermination(90, TimeUnit.SECONDS));
            } finally {
                threads.shutdownNow();
            }
            assertEquals(0, failures.get());
            assertEquals(400 * ROUNDS, s.total());
            assertEquals(0, s.overlaps.get());
        }
    }

    @Test
    void controlWithoutTheLockLosesUpdates() throws Exception {
        ExecutorService vts = virtualThreads();
        Sections s = new Sections();
        try {
            for (int t = 0; t < THREADS; t++) {
                int first = t % NAMES;
                vts.execute(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        s.run((first + r * 7) % NAMES);
                    }
                });
            }
            vts.shutdown();
            assertTrue(vts.awaitTermination(60, TimeUnit.SECONDS));
        } finally {
            vts.shutdownNow();
        }
        assertTrue(
                s.overlaps.get() > 0 && s.total() < THREADS * ROUNDS,
                "the unlocked control should overlap and lose updates: overlaps " + s.overlaps.get() + ", total "
                        + s.total());
    }

    private static Map<String, Integer> toCounts(Map<String, AtomicInteger> m) {
        Map<String, Integer> out = new ConcurrentHashMap<>();
        List<String> keys = new ArrayList<>(m.keySet());
        for (String k : keys) {
            out.put(k, m.get(k).get());
        }
        return out;
    }
}
