package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.cdi.beans.Inside;
import dev.lockwarden.cdi.beans.NightlyJobs;
import dev.lockwarden.cdi.beans.Order;
import dev.lockwarden.cdi.beans.PaymentService;
import dev.lockwarden.cdi.beans.Probe;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;

/**
 * {@code @Locked} in a real CDI container (Weld through Arquillian) against a real redis-server. The
 * default producer builds the LockManager from the {@code lockwarden.*} system properties {@link WeldOnRedisTest} sets.
 */
class LockedInterceptorTest extends WeldOnRedisTest {
    private static final int THREADS = 8;

    @Inject
    PaymentService payments;

    @Inject
    NightlyJobs jobs;

    @Inject
    dev.lockwarden.cdi.beans.Audited audited;

    @Inject
    Probe probe;

    @Inject
    LockContext lockContext;

    @Inject
    LockManager locks;

    @Inject
    dev.lockwarden.cdi.beans.LostEvents lostEvents;

    @Deployment
    static JavaArchive deployment() {
        return beansArchive("locked-test.jar");
    }

    /**
     * Called first by every test: Arquillian's JUnit 5 adapter skips {@code @BeforeEach} methods with
     * local containers such as Weld embedded (arquillian/arquillian-core#861).
     */
    private void fresh() {
        redis.flushAll();
        probe.reset();
        lostEvents.reset();
    }

    @Test
    void concurrentCallsForOneKeyNeverOverlap() throws Exception {
        fresh();
        List<String> results = runConcurrently(() -> payments.charge("TX-1"));

        assertEquals(THREADS, results.size());
        results.forEach(r -> assertEquals("charged TX-1", r));
        assertEquals(THREADS, probe.runs(), "every caller waited its turn (waitUpTo = 10s)");
        assertEquals(1, probe.maxActive(), "bodies overlapped under one lock name");
        assertTrue(locks.inspector().fenceOf("payment:TX-1") >= THREADS, "one fencing token per acquisition");
    }

    @Test
    void differentKeysRunInParallel() throws Exception {
        fresh();
        var counter = new java.util.concurrent.atomic.AtomicInteger();
        runConcurrently(() -> payments.charge("TX-" + counter.incrementAndGet()));

        assertTrue(probe.maxActive() > 1, "distinct lock names must not serialize: max overlap " + probe.maxActive());
    }

    @Test
    void skipRunsTheBodyOnceAndSkipsBusyCallers() throws Exception {
        fresh();
        List<Boolean> results = runConcurrently(() -> payments.chargeIfFree("TX-2"));

        long skipped = results.stream().filter(ran -> !ran).count();
        assertTrue(skipped > 0, "some callers must have found the lock busy and skipped");
        assertEquals(THREADS - skipped, probe.runs(), "skipped callers must not run the body");
        assertTrue(probe.runs() < THREADS);
        assertEquals(1, probe.maxActive());
    }

    @Test
    void skipReturnsNullOrThePrimitiveDefaultWithoutRunningTheBody() {
        fresh();
        try (LockHandle held = otherJvm.acquire("slot:A", LockOptions.ttl(Duration.ofSeconds(10)));
                LockHandle held2 = otherJvm.acquire("payment:TX-3", LockOptions.ttl(Duration.ofSeconds(10)))) {
            assertEquals(0, payments.countIfFree("A"));
            assertEquals(
                    java.util.Optional.empty(),
                    payments.describeIfFree("TX-3"),
                    "SKIP returns Optional.empty() for Optional");
            assertFalse(payments.chargeIfFree("TX-3"));
        }
        assertEquals(0, probe.runs());
        assertEquals(42, payments.countIfFree("A"), "free again after the other holder released");
    }

    @Test
    void failThrowsLockNotAcquiredWhenHeldElsewhere() {
        fresh();
        try (LockHandle held = otherJvm.acquire("payment:TX-4", LockOptions.ttl(Duration.ofSeconds(10)))) {
            var busy = assertThrows(LockNotAcquiredException.class, () -> payments.failFast("TX-4"));
            assertEquals("payment:TX-4", busy.lockName());
            assertTrue(busy.holderRemainingTtl().isPresent());
            assertTrue(
                    busy.getMessage()
                            .startsWith("@Locked on " + PaymentService.class.getName()
                                    + "#failFast: lock 'payment:TX-4'" + " is held by another owner"),
                    busy.getMessage());
            assertTrue(busy.getMessage().contains("Raise @Locked(waitUpTo = ...)"), busy.getMessage());
            var ejb = busy.getClass().getAnnotation(jakarta.ejb.ApplicationException.class);
            assertTrue(
                    ejb != null && !ejb.rollback() && ejb.inherited(),
                    "EJB containers pass busy to the caller unwrapped and leave its transaction alone");
        }
        assertEquals(0, probe.runs());
        payments.failFast("TX-4");
        assertEquals(1, probe.runs());
    }

    @Test
    void lockIsReleasedAfterReturnAndAfterThrow() {
        fresh();
        payments.charge("TX-5");
        assertTrue(locks.inspector().get("payment:TX-5").isEmpty(), "released after a normal return");
        assertReleased("payment:TX-5");

        var boom = assertThrows(IllegalStateException.class, () -> payments.explode("TX-6"));
        assertEquals("boom TX-6", boom.getMessage(), "the body's exception passes through unchanged");
        assertTrue(locks.inspector().get("payment:TX-6").isEmpty(), "released after the body threw");
        assertReleased("payment:TX-6");
    }

    @Test
    void lockContextAndLocksGiveTheHandleWithItsFencingToken() {
        fresh();
        Inside first = payments.inside("TX-7");
        Inside second = payments.inside("TX-7");

        assertSame(first.fromContext(), first.fromLocks(), "LockContext and Locks see the same handle");
        assertEquals("payment:TX-7", first.fromContext().name());
        assertTrue(first.heldInside());
        assertTrue(first.fenceInside() > 0);
        assertTrue(second.fenceInside() > first.fenceInside(), "fencing tokens increase per acquisition");
        assertEquals(second.fenceInside(), locks.inspector().fenceOf("payment:TX-7"));
        assertFalse(first.fromContext().isHeld(), "released when the method returned");
    }

    @Test
    void holderInfoShowsCdiSourceAndMethod() {
        fresh();
        // fresh() flushed this JVM's heartbeat and per-JVM record (application, host, pid are kept once
        // per JVM, not per lock): the heartbeat writes them back within its 5 s period
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        Inside inside = payments.inside("TX-8");
        while (inside.info().map(i -> i.holder().application().isEmpty()).orElse(false) && System.nanoTime() < until) {
            sleepMillis(200);
            inside = payments.inside("TX-8");
        }

        LockInfo info = inside.info().orElseThrow(() -> new AssertionError("lock not visible in Redis while held"));
        assertEquals(LockSource.CDI, info.source());
        assertEquals(PaymentService.class.getName() + "#inside", info.method());
        assertEquals(APPLICATION, info.holder().application(), "the default producer read lockwarden.application");
        assertEquals(inside.thread(), info.holder().thread());
        assertEquals(inside.fenceInside(), info.fencingToken());
        assertTrue(
                info.remainingTtl().compareTo(Duration.ofSeconds(10)) > 0,
                "ttl = \"20s\" applied: " + info.remainingTtl());
    }

    @Test
    void nestedCallsSeeTheInnermostLock() {
        fresh();
        assertEquals("order:O-1 > line:O-1 > order:O-1", payments.nested(new Order("O-1")));
    }

    @Test
    void outsideALockedMethodCurrentThrows() {
        fresh();
        var fromContext = assertThrows(IllegalStateException.class, () -> lockContext.current());
        assertTrue(fromContext.getMessage().contains("no @Locked method is running"), fromContext.getMessage());
        assertThrows(IllegalStateException.class, Locks::current);
        payments.inside("TX-9");
        assertThrows(IllegalStateException.class, Locks::current, "the stack is empty again after the call");
    }

    @Test
    void typeLevelLockedCoversEveryMethodAndMethodLevelWins() {
        fresh();
        assertEquals("jobs:nightly", jobs.report().orElseThrow());
        assertEquals("jobs:cleanup", jobs.named("cleanup").orElseThrow());
        try (LockHandle held = otherJvm.acquire("jobs:nightly", LockOptions.ttl(Duration.ofSeconds(10)))) {
            assertEquals(java.util.Optional.empty(), jobs.report(), "type-level onBusy = SKIP");
        }
    }

    @Test
    void holdAtLeastKeepsTheLockAfterAQuickMethodReturns() throws Exception {
        fresh();
        long start = System.nanoTime();
        payments.onceAPeriod("nightly");
        assertTrue(locks.inspector().get("cron:nightly").isPresent(), "still held after the method returned");
        assertTrue(
                otherJvm.tryAcquire("cron:nightly", LockOptions.ttl(Duration.ofSeconds(5)))
                        .isEmpty(),
                "another node whose timer fires a little later finds it taken");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (locks.inspector().get("cron:nightly").isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long heldMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(
                heldMillis >= 950 && heldMillis < 4000,
                "held ~1s (holdAtLeast), not the 10s TTL: " + heldMillis + " ms");
        assertEquals(1, probe.runs());
    }

    @Test
    void lockedWithoutValueLocksSimpleClassNameDotMethod() {
        fresh();
        assertEquals("PaymentService.defaultNamed", payments.defaultNamed());
    }

    @Test
    void classLevelLockedSkipsLifecycleCallbacksInitializersAndObjectMethods() {
        fresh();
        assertEquals("audit", audited.business(), "a business method takes the class-level lock");
        assertEquals("unlocked", audited.seenAtPostConstruct());
        assertEquals("unlocked", audited.seenAtInitializer());
        assertEquals("Audited[unlocked]", audited.toString(), "toString() through the proxy is not locked");
        try (LockHandle held = otherJvm.acquire("audit", LockOptions.ttl(Duration.ofSeconds(10)))) {
            audited.started(); // called as a plain method it is still a callback: no lock, so not busy either
            assertThrows(LockNotAcquiredException.class, audited::business);
        }
        assertEquals("unlocked", audited.seenAtPostConstruct());
    }

    @Test
    void waitThatTimesOutThrowsBusyAfterTheWaitBudget() {
        fresh();
        try (LockHandle held = otherJvm.acquire("payment:TX-W", LockOptions.ttl(Duration.ofSeconds(10)))) {
            long start = System.nanoTime();
            var busy = assertThrows(LockNotAcquiredException.class, () -> payments.waitBriefly("TX-W"));
            long waited = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waited >= 290 && waited < 3000, "waited " + waited + " ms for waitUpTo = 300ms");
            assertTrue(busy.getMessage().contains("waited "), busy.getMessage());
        }
        assertEquals(0, probe.runs());
    }

    @Test
    void sameKeyOnTheSameThreadIsReentrant() {
        fresh();
        long[] fences = payments.reenter("R-1");
        assertEquals(
                fences[0],
                fences[1],
                "the nested call for the same name reuses the outer lock (no wait, no new fence)");
        assertTrue(locks.inspector().get("re:R-1").isEmpty(), "released when the outer call ended");
    }

    @Test
    void nullKeyArgumentNamesTheMethod() {
        fresh();
        var e = assertThrows(IllegalArgumentException.class, () -> payments.charge(null));
        assertTrue(e.getMessage().contains(PaymentService.class.getName() + "#charge"), e.getMessage());
        assertEquals(0, probe.runs());
    }

    @Test
    void lockLostWhileRunningIsReportedAfterTheBody() {
        fresh();
        var lost = assertThrows(LockLostException.class, () -> payments.loseLockWhileRunning("L-1"));
        assertEquals("lease:L-1", lost.lockName());
        var ejb = lost.getClass().getAnnotation(jakarta.ejb.ApplicationException.class);
        assertTrue(ejb != null && ejb.rollback(), "EJB containers pass lost to the caller unwrapped and roll back");
        assertTrue(
                lost.getMessage()
                        .contains(
                                "while @Locked method " + PaymentService.class.getName() + "#loseLockWhileRunning ran"),
                lost.getMessage());
        var events = lostEvents.seen();
        assertEquals(1, events.size(), "@Observes LockLostEvent saw the loss once: " + events);
        assertEquals(LockLostEvent.Outcome.THROWN, events.get(0).outcome());
        assertEquals("lease:L-1", events.get(0).lockName());
        assertTrue(
                events.get(0).reason().contains("force-released"), events.get(0).reason());
    }

    @Test
    void aForceReleaseIsReportedAtTheEndOfTheBodyLongBeforeTheNextRefresh() {
        fresh();
        long start = System.nanoTime();
        var lost = assertThrows(LockLostException.class, () -> payments.forceReleasedWhileRunning("F-1"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals("forced:F-1", lost.lockName());
        // the body waits at most 2 s for the handle to turn lost; the watchdog's first refresh is 20 s away
        assertTrue(millis < 5_000, "reported after " + millis + " ms");
        var events = lostEvents.seen();
        assertEquals(1, events.size(), "@Observes LockLostEvent saw the loss once: " + events);
        assertEquals(LockLostEvent.Outcome.THROWN, events.get(0).outcome());
        assertTrue(
                events.get(0).reason().contains("force-released by operator 'test operator'"),
                events.get(0).reason());
    }

    private void assertReleased(String name) {
        try (LockHandle again = otherJvm.tryAcquire(name, LockOptions.ttl(Duration.ofSeconds(5)))
                .orElseThrow(() -> new AssertionError(name + " is still held after the method ended"))) {
            assertTrue(again.isHeld());
        }
    }

    /** Runs {@code call} on {@link #THREADS} threads released together; returns every result. */
    private static <T> List<T> runConcurrently(Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                futures.add(pool.submit(() -> {
                    start.await(5, TimeUnit.SECONDS);
                    return call.call();
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(20, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
