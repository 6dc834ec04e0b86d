package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockPage;
import dev.lockwarden.LockSource;
import dev.lockwarden.PageRequest;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The lock contract, run unchanged against every store (single node, Redlock, cluster). A
 * subclass registers its {@link RedisServerExtension} and says how to point a builder at it.
 */
public abstract class AbstractLockBehaviourTest {
    private static final LockOptions TEN_SECONDS = LockOptions.ttl(Duration.ofSeconds(10));

    private final List<LockManager> managers = new ArrayList<>();
    protected LockManager locks;
    protected String name;

    /** The servers of the subclass. */
    protected abstract RedisServerExtension servers();

    /** Points the builder at the servers (redis / redlock / cluster / sentinel). */
    protected abstract LockManager.Builder target(LockManager.Builder builder);

    /** Empties every data node before each test. */
    protected void flushAll() {
        servers().flushAll();
    }

    /** The data nodes a test may change behind the managers' backs. */
    protected List<dev.lockwarden.testing.RedisNode> dataNodes() {
        return servers().nodes();
    }

    /** Another manager, as a second application instance would have; closed after the test. */
    protected LockManager newManager(String application) {
        LockManager m = target(LockManager.builder()).application(application).build();
        managers.add(m);
        return m;
    }

    @BeforeEach
    void setUp(TestInfo info) {
        flushAll();
        locks = newManager("app-a");
        name = "test:" + info.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void tearDown() {
        managers.forEach(LockManager::close);
        managers.clear();
    }

    @Test
    void acquireAndRelease() {
        LockHandle h = locks.acquire(name, TEN_SECONDS);
        assertTrue(h.isHeld());
        assertEquals(name, h.name());
        assertTrue(h.remainingTtl().toMillis() > 9_000, "remaining " + h.remainingTtl());
        assertTrue(locks.inspector().get(name).isPresent());
        h.release();
        assertFalse(h.isHeld());
        assertEquals(Duration.ZERO, h.remainingTtl());
        assertTrue(locks.inspector().get(name).isEmpty());
        h.release(); // idempotent
        try (LockHandle again = locks.acquire(name, TEN_SECONDS)) {
            assertTrue(again.isHeld());
        }
    }

    @Test
    void busyLockThrowsWithHolderRemainingTtl() {
        LockManager other = newManager("app-b");
        try (LockHandle h = locks.acquire(name, TEN_SECONDS)) {
            LockNotAcquiredException e =
                    assertThrows(LockNotAcquiredException.class, () -> other.acquire(name, TEN_SECONDS));
            long ttl = e.holderRemainingTtl().orElseThrow().toMillis();
            assertTrue(ttl > 5_000 && ttl <= 10_000, "holder TTL " + ttl);
            assertEquals(name, e.lockName());
            assertTrue(e.getMessage().contains(name), e.getMessage());
            assertTrue(h.isHeld());
        }
    }

    @Test
    void tryAcquireNeverWaits() {
        LockManager other = newManager("app-b");
        try (LockHandle h = locks.acquire(name, TEN_SECONDS)) {
            long t0 = System.nanoTime();
            Optional<LockHandle> r = other.tryAcquire(name, TEN_SECONDS.waitUpTo(Duration.ofSeconds(5)));
            assertTrue(r.isEmpty());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "tryAcquire waited");
        }
        assertTrue(other.tryAcquire(name, TEN_SECONDS).isPresent());
    }

    @Test
    void waiterGetsLockWhenReleased() throws Exception {
        LockManager other = newManager("app-b");
        LockHandle h = locks.acquire(name, TEN_SECONDS);
        CompletableFuture<LockHandle> waiter =
                CompletableFuture.supplyAsync(() -> other.acquire(name, TEN_SECONDS.waitUpTo(Duration.ofSeconds(10))));
        Thread.sleep(300);
        assertFalse(waiter.isDone(), "waiter must wait while the lock is held");
        h.release();
        LockHandle got = waiter.get(5, TimeUnit.SECONDS);
        assertTrue(got.isHeld());
        assertTrue(got.fencingToken() > h.fencingToken());
        got.release();
    }

    @Test
    void waitGivesUpAfterBudget() {
        LockManager other = newManager("app-b");
        try (LockHandle h = locks.acquire(name, TEN_SECONDS)) {
            long t0 = System.nanoTime();
            assertThrows(
                    LockNotAcquiredException.class,
                    () -> other.acquire(name, TEN_SECONDS.waitUpTo(Duration.ofMillis(400))));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(waited >= 390 && waited < 3_000, "waited " + waited + " ms");
        }
    }

    @Test
    void lockExpiresAfterTtlWithoutRefresh() throws Exception {
        LockManager other = newManager("app-b");
        LockHandle h =
                locks.acquire(name, LockOptions.ttl(Duration.ofMillis(300)).autoRefresh(false));
        CountDownLatch lost = new CountDownLatch(1);
        h.onLost(e -> lost.countDown());
        assertTrue(h.isHeld());
        Thread.sleep(450);
        assertFalse(h.isHeld());
        assertThrows(LockLostException.class, h::checkHeld);
        assertTrue(lost.await(2, TimeUnit.SECONDS), "onLost not fired on expiry");
        try (LockHandle b = other.acquire(name, TEN_SECONDS)) {
            assertTrue(b.fencingToken() > h.fencingToken());
        }
    }

    /**
     * README: "isHeld() turns false slightly before Redis expires the key, never after". Each round reads
     * which data nodes still have the key, then isHeld(), then the nodes again: once fewer than a majority
     * of the nodes that had it still do, isHeld() must be false; and when isHeld() first turns false, the
     * key must still be there (the handle gives up its drift margin, 1 % of the TTL + 2 ms, early).
     */
    @Test
    void isHeldTurnsFalseBeforeRedisExpiresTheKeyNeverAfter() throws Exception {
        String key = "lock:{" + name + "}";
        LockHandle h =
                locks.acquire(name, LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(false));
        int had = present(key);
        assertTrue(had > 0, "the key is in Redis after the acquire");
        int majority = had / 2 + 1;
        Thread.sleep(2_800);
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        boolean sawFalse = false;
        while (!sawFalse && System.nanoTime() < deadline) {
            boolean expired = present(key) < majority;
            boolean held = h.isHeld();
            int after = present(key);
            assertFalse(expired && held, "isHeld() true after Redis expired the key");
            if (!held) {
                sawFalse = true;
                assertTrue(
                        after >= majority,
                        "isHeld() turned false only after the key expired (" + after + " of " + had
                                + " nodes still have it)");
            }
        }
        assertTrue(sawFalse, "isHeld() still true 3 s after the TTL");
    }

    private int present(String key) {
        int n = 0;
        for (dev.lockwarden.testing.RedisNode node : dataNodes()) {
            try {
                if (Long.parseLong(node.command("PTTL", key)) > 0) {
                    n++;
                }
            } catch (dev.lockwarden.testing.RedisReplyException e) {
                assertTrue(e.getMessage().startsWith("MOVED"), e.getMessage()); // a cluster node not owning it
            }
        }
        return n;
    }

    @Test
    void releaseWithStaleTokenDoesNotTouchTheNewHolder() throws Exception {
        LockManager other = newManager("app-b");
        LockHandle a =
                locks.acquire(name, LockOptions.ttl(Duration.ofMillis(200)).autoRefresh(false));
        Thread.sleep(350);
        LockHandle b = other.acquire(name, TEN_SECONDS);
        a.release(); // a's token no longer matches: must not delete b's lock
        assertTrue(b.isHeld());
        LockInfo info = locks.inspector().get(name).orElseThrow();
        assertEquals(b.fencingToken(), info.fencingToken());
        assertEquals("app-b", info.holder().application());
        assertThrows(LockNotAcquiredException.class, () -> locks.acquire(name, TEN_SECONDS));
        b.release();
    }

    @Test
    void sameThreadReentersWithoutRedisCall() throws Exception {
        LockHandle outer = locks.acquire(name, TEN_SECONDS);
        LockHandle inner = locks.acquire(name, TEN_SECONDS);
        assertNotSame(outer, inner);
        assertEquals(outer.fencingToken(), inner.fencingToken());
        assertEquals(outer.fencingToken(), locks.inspector().fenceOf(name), "a nested acquire must not bump the fence");
        CompletableFuture<Boolean> otherThread = CompletableFuture.supplyAsync(
                () -> locks.tryAcquire(name, TEN_SECONDS).isPresent());
        assertFalse(otherThread.get(5, TimeUnit.SECONDS), "another thread must not reenter");
        inner.release();
        assertFalse(inner.isHeld());
        assertTrue(outer.isHeld(), "releasing the nested handle keeps the lock");
        assertTrue(locks.inspector().get(name).isPresent());
        outer.release();
        assertTrue(locks.inspector().get(name).isEmpty());
    }

    @Test
    void reentrancyCanBeSwitchedOff() {
        LockManager strict = target(LockManager.builder()).reentrant(false).build();
        managers.add(strict);
        try (LockHandle h = strict.acquire(name, TEN_SECONDS)) {
            assertThrows(LockNotAcquiredException.class, () -> strict.acquire(name, TEN_SECONDS));
        }
    }

    @Test
    void fenceStrictlyIncreasesAcrossHoldersAndExpiry() throws Exception {
        LockManager other = newManager("app-b");
        long last = 0;
        for (int i = 0; i < 5; i++) {
            LockManager m = i % 2 == 0 ? locks : other;
            LockHandle h =
                    m.acquire(name, LockOptions.ttl(Duration.ofMillis(150)).autoRefresh(false));
            assertTrue(h.fencingToken() > last, "fence " + h.fencingToken() + " after " + last);
            last = h.fencingToken();
            if (i % 2 == 0) {
                h.release();
            } else {
                Thread.sleep(250); // let it expire instead of releasing
            }
        }
        assertEquals(last, locks.inspector().fenceOf(name));
    }

    @Test
    void watchdogKeepsLockAlivePastItsTtl() throws Exception {
        LockManager other = newManager("app-b");
        try (LockHandle h = locks.acquire(name, LockOptions.ttl(Duration.ofMillis(400)))) {
            Thread.sleep(1_500);
            assertTrue(h.isHeld(), "auto-refreshed lock lost: " + h);
            h.checkHeld();
            assertTrue(other.tryAcquire(name, TEN_SECONDS).isEmpty());
            assertTrue(locks.inspector().get(name).orElseThrow().remainingTtl().toMillis() > 0);
        }
    }

    @Test
    void forceReleaseMakesHolderLostAndBumpsFence() throws Exception {
        LockManager operator = newManager("dashboard");
        LockHandle h = locks.acquire(name, LockOptions.ttl(Duration.ofMillis(600)));
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        CountDownLatch lostLatch = new CountDownLatch(1);
        h.onLost(e -> {
            lost.set(e);
            lostLatch.countDown();
        });
        ForceReleaseResult r = operator.inspector().forceRelease(name, "alice");
        assertTrue(r.released());
        assertEquals(h.fencingToken(), r.oldFence());
        assertTrue(r.newFence() > r.oldFence());
        assertTrue(lostLatch.await(2, TimeUnit.SECONDS), "holder not told within the TTL");
        assertEquals(h.fencingToken(), lost.get().fencingToken());
        assertFalse(h.isHeld());
        assertThrows(LockLostException.class, h::checkHeld);
        try (LockHandle next = operator.acquire(name, TEN_SECONDS)) {
            assertTrue(next.fencingToken() > r.newFence() - 1);
            assertTrue(next.fencingToken() > h.fencingToken());
        }
        assertFalse(
                operator.inspector().forceRelease("test:never-held", "alice").released());
        assertThrows(IllegalArgumentException.class, () -> operator.inspector().forceRelease(name, " "));
    }

    /** TTL 60 s: the first refresh comes after 20 s, the validity ends after 60 s; neither can tell within a second. */
    protected static final LockOptions MINUTE = LockOptions.ttl(Duration.ofSeconds(60));

    /** Force-releases per auto-refresh mode in the test below; the median must be within 100 ms. */
    private static final int TOLD_ROUNDS = 5;

    /**
     * A force-release tells the holder within 100 ms (the median of {@value #TOLD_ROUNDS} rounds with and
     * without auto-refresh; each within 1 s, so one slow round on a busy machine does not decide it).
     */
    @Test
    void aForceReleaseTellsTheHolderAtOnceWithAndWithoutAutoRefresh() throws Exception {
        LockManager operator = newManager("dashboard");
        awaitLossChannel(locks, operator);
        List<Double> told = new ArrayList<>();
        for (int round = 0; round < 2 * TOLD_ROUNDS; round++) {
            told.add(forceReleaseTellsTheHolder(operator, round % 2 == 0, round));
        }
        List<Double> sorted = told.stream().sorted().toList();
        double median = (sorted.get(TOLD_ROUNDS - 1) + sorted.get(TOLD_ROUNDS)) / 2;
        System.out.printf(
                "%s: holder told %.1f ms (median) after forceRelease() was called; all %s%n",
                getClass().getSimpleName(), median, told);
        assertTrue(median <= 100, "the holder was told " + median + " ms (median) after the force-release: " + told);
    }

    /** One force-release of a held lock; returns the ms from the call until the holder's onLost ran. */
    private double forceReleaseTellsTheHolder(LockManager operator, boolean autoRefresh, int round) throws Exception {
        String lock = name + ":refresh-" + autoRefresh + "-" + round;
        LockHandle h = locks.acquire(lock, MINUTE.autoRefresh(autoRefresh));
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        CountDownLatch told = new CountDownLatch(1);
        long[] toldAt = new long[1];
        h.onLost(e -> {
            toldAt[0] = System.nanoTime();
            lost.set(e);
            told.countDown();
        });
        long start = System.nanoTime();
        assertTrue(operator.inspector().forceRelease(lock, "alice").released());
        long returned = System.nanoTime();
        while (h.isHeld() && System.nanoTime() - returned < TimeUnit.SECONDS.toNanos(2)) {
            Thread.sleep(1);
        }
        long notHeld = System.nanoTime();
        assertTrue(told.await(2, TimeUnit.SECONDS), "onLost did not fire: the holder was not told");
        double ms = (toldAt[0] - start) / 1e6;
        System.out.printf(
                "%s autoRefresh=%s: onLost %.1f ms after forceRelease() was called (%.1f ms after it returned),"
                        + " isHeld() false %.1f ms after it returned%n",
                getClass().getSimpleName(), autoRefresh, ms, (toldAt[0] - returned) / 1e6, (notHeld - returned) / 1e6);
        assertTrue(ms < 1_000, "onLost fired " + ms + " ms after the force-release");
        assertTrue(
                lost.get().reason().startsWith("force-released by operator 'alice'"),
                lost.get().reason());
        assertEquals(h.fencingToken(), lost.get().fencingToken());
        assertFalse(h.isHeld());
        LockLostException e = assertThrows(LockLostException.class, h::checkHeld);
        assertTrue(e.getMessage().contains("force-released by operator 'alice'"), e.getMessage());
        return ms;
    }

    @Test
    void aForceReleaseOfAnotherLockOrAnOlderTokenLeavesTheHolderHeld() throws Exception {
        LockManager operator = newManager("dashboard");
        awaitLossChannel(locks, operator);
        LockHandle kept = locks.acquire(name + ":kept", MINUTE.autoRefresh(false));
        LockHandle first = locks.acquire(name, MINUTE.autoRefresh(false));
        String firstTokenSha1 = locks.inspector().get(name).orElseThrow().tokenId();
        assertTrue(operator.inspector().forceRelease(name, "alice").released());
        awaitNotHeld(first);
        LockHandle again = locks.acquire(name, MINUTE.autoRefresh(false)); // a new token, same name
        // another manager's lock of another name is force-released, and the first token's message comes late
        // (as a Redlock node's duplicate would): neither may end the handles held now
        LockHandle elsewhere = operator.acquire(name + ":elsewhere", MINUTE);
        assertTrue(operator.inspector().forceRelease(elsewhere.name(), "bob").released());
        String late = name + US + firstTokenSha1 + US + "99" + US + "bob";
        dataNodes().forEach(n -> n.command("PUBLISH", "lock:force-released", late)); // wherever the bus listens
        // messages reach the holder in order (one connection): once this probe is told, the ones above were read
        LockHandle probe = locks.acquire(name + ":probe", MINUTE.autoRefresh(false));
        assertTrue(operator.inspector().forceRelease(probe.name(), "carol").released());
        awaitNotHeld(probe);
        Thread.sleep(200); // a cluster forwards each node's messages on its own: give the others time too
        assertTrue(again.isHeld(), "a late message for the first token ended the new acquisition");
        assertTrue(kept.isHeld(), "a force-release of another lock ended this one");
        again.checkHeld();
        again.release();
        kept.release();
    }

    @Test
    void withLockEndsInLockLostExceptionWhenTheLockIsForceReleasedWhileTheBodyRuns() throws Exception {
        LockManager operator = newManager("dashboard");
        awaitLossChannel(locks, operator);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch forced = new CountDownLatch(1);
        CompletableFuture<String> job = CompletableFuture.supplyAsync(() -> locks.withLock(name, MINUTE, () -> {
            running.countDown();
            assertTrue(forced.await(10, TimeUnit.SECONDS));
            Thread.sleep(1_000); // the body goes on for a second after the force-release, far below a refresh
            return "done";
        }));
        assertTrue(running.await(10, TimeUnit.SECONDS));
        assertTrue(operator.inspector().forceRelease(name, "alice").released());
        forced.countDown();
        java.util.concurrent.ExecutionException e =
                assertThrows(java.util.concurrent.ExecutionException.class, () -> job.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof LockLostException, "withLock ended with " + e.getCause());
        assertTrue(
                e.getCause().getMessage().contains("force-released by operator 'alice'"),
                e.getCause().getMessage());
    }

    @Test
    void aForceReleaseIsStillToldAfterThePubSubConnectionWasKilled() throws Exception {
        LockManager operator = newManager("dashboard");
        awaitLossChannel(locks, operator);
        dataNodes().forEach(n -> n.command("CLIENT", "KILL", "TYPE", "pubsub"));
        awaitLossChannel(locks, operator); // the bus reconnected and subscribed the channel again
        LockHandle h = locks.acquire(name, MINUTE.autoRefresh(false));
        long start = System.nanoTime();
        assertTrue(operator.inspector().forceRelease(name, "alice").released());
        awaitNotHeld(h);
        System.out.printf(
                "%s after CLIENT KILL TYPE pubsub: not held %.1f ms after forceRelease() was called%n",
                getClass().getSimpleName(), (System.nanoTime() - start) / 1e6);
        assertThrows(LockLostException.class, h::checkHeld);
    }

    private static final String US = "\u001f";
    private static final AtomicInteger PROBES = new AtomicInteger();

    /**
     * Waits (at most 15 s) until {@code holder} hears force-releases: a probe lock it holds is force-released by
     * {@code operator} until the holder is told within 500 ms (its pub/sub connection subscribed the channel).
     */
    protected void awaitLossChannel(LockManager holder, LockManager operator) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < until) {
            // a new name each time, also across calls: a probe whose force-release was not heard is still held by
            // the holder as far as it knows, so taking its name again would be a reentrant hold, not a Redis lock
            LockHandle probe =
                    holder.acquire(name + ":listening-" + PROBES.incrementAndGet(), MINUTE.autoRefresh(false));
            assertTrue(operator.inspector().forceRelease(probe.name(), "probe").released());
            long told = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (probe.isHeld() && System.nanoTime() < told) {
                Thread.sleep(5);
            }
            if (!probe.isHeld()) {
                return;
            }
        }
        throw new AssertionError("the holder did not hear a force-release within 15 s");
    }

    protected static void awaitNotHeld(LockHandle h) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (h.isHeld() && System.nanoTime() < until) {
            Thread.sleep(1);
        }
        assertFalse(h.isHeld(), h + " was not told of its force-release within 2 s");
    }

    @Test
    void inspectorShowsHolder() {
        try (LockHandle h = locks.acquire(name, TEN_SECONDS.source(LockSource.CDI, "Billing#charge"))) {
            LockInfo info = locks.inspector().get(name).orElseThrow();
            assertEquals("app-a", info.holder().application());
            assertEquals(ProcessHandle.current().pid(), info.holder().pid());
            assertEquals(Thread.currentThread().getName(), info.holder().thread());
            assertEquals(LockSource.CDI, info.source());
            assertEquals("Billing#charge", info.method());
            assertEquals(h.fencingToken(), info.fencingToken());
            assertTrue(info.holderAlive());
            assertFalse(info.nodes().isEmpty());
            assertTrue(info.acquiredAt().toEpochMilli() > System.currentTimeMillis() - 60_000);
        }
    }

    @Test
    void inspectorListsAndPagesTenThousandLocks() {
        int total = 10_000;
        LockOptions opts = LockOptions.ttl(Duration.ofMinutes(5)).autoRefresh(false);
        List<LockHandle> held = new ArrayList<>(total);
        for (int i = 0; i < total; i++) {
            held.add(locks.acquire("bulk:" + i, opts));
        }
        locks.acquire("other:x", opts);
        Set<String> seen = new HashSet<>();
        int pages = 0;
        PageRequest page = PageRequest.first(500);
        while (page != null) {
            LockPage p = locks.inspector().list(LockFilter.prefix("bulk:"), page);
            for (LockInfo i : p.locks()) {
                assertTrue(i.name().startsWith("bulk:"), i.name());
                assertEquals("app-a", i.holder().application());
                seen.add(i.name());
            }
            pages++;
            page = p.next(500).orElse(null);
            assertTrue(pages < 1_000, "paging does not end");
        }
        assertEquals(total, seen.size());
        assertTrue(pages >= 10, "expected many pages, got " + pages);
        assertEquals(total + 1, countAll());
        held.forEach(LockHandle::release);
    }

    private int countAll() {
        Set<String> all = new HashSet<>();
        PageRequest page = PageRequest.first(2_000);
        while (page != null) {
            LockPage p = locks.inspector().list(LockFilter.all(), page);
            p.locks().forEach(i -> all.add(i.name()));
            page = p.next(2_000).orElse(null);
        }
        return all.size();
    }

    @Test
    void eventsAreRecorded() throws Exception {
        // cycles are recorded only when switched on (lockwarden.history.cycles, off by default)
        LockManager recording = target(LockManager.builder())
                .application("app-a")
                .historyCycles(true)
                .build();
        managers.add(recording);
        recording.acquire(name, TEN_SECONDS).release();
        List<LockEvent> events = List.of();
        for (int i = 0; i < 50 && events.size() < 2; i++) {
            Thread.sleep(100);
            events = recording.inspector().events(name);
        }
        assertEquals(
                List.of("release", "acquire"),
                events.stream().map(LockEvent::type).toList());
        assertEquals("app-a", events.get(0).fields().get("app"));
    }

    @Test
    void withLockRunsBodyAndReleases() {
        String result = locks.withLock(name, TEN_SECONDS, () -> {
            assertTrue(locks.inspector().get(name).isPresent());
            return "done";
        });
        assertEquals("done", result);
        assertTrue(locks.inspector().get(name).isEmpty());
        assertThrows(
                IllegalStateException.class,
                () -> locks.withLock(name, TEN_SECONDS, () -> {
                    throw new IllegalStateException("boom");
                }));
        assertTrue(locks.inspector().get(name).isEmpty(), "released after the body threw");
    }

    @Test
    void handleCanBeReleasedFromAnotherThread() throws Exception {
        LockHandle h = locks.acquire(name, TEN_SECONDS);
        CompletableFuture.runAsync(h::release).get(5, TimeUnit.SECONDS);
        assertFalse(h.isHeld());
        assertTrue(locks.inspector().get(name).isEmpty());
        // the acquiring thread's reentrancy entry is gone too: a new acquire is a real one
        try (LockHandle again = locks.acquire(name, TEN_SECONDS)) {
            assertTrue(again.fencingToken() > h.fencingToken());
        }
    }

    @Test
    void pubSubWakesWaiterLongBeforeTheRetryInterval() throws Exception {
        LockManager other = newManager("app-b");
        // A 60 s retry interval and a 60 s holder TTL: the fallback sleep is >= 0.75 * 60 s / 4 = 11.25 s,
        // so only the release message can wake the waiter within the 5 s bound. The bound is wide (a loaded
        // machine can take hundreds of ms) yet still fails when the wake-up is missing (and falls back to polling).
        LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
        LockOptions waiting = holding.waitUpTo(Duration.ofSeconds(120)).retryInterval(Duration.ofSeconds(60));
        long boundMs = 5_000;
        for (int round = 0; round < 3; round++) {
            // held 600 ms: the waiter is in its (long) fallback sleep by then
            long latencyMs =
                    WakeLatency.afterRelease(locks, other, name, holding, waiting, 600, Duration.ofSeconds(30));
            assertTrue(
                    latencyMs < boundMs,
                    "round " + round + ": waiter took " + latencyMs + " ms after the release (bound " + boundMs
                            + " ms; without the wake-up it would sleep >= 11,250 ms)");
        }
    }

    @Test
    void localWaitersGetTheLockInArrivalOrderEachWokenByTheRelease() throws Exception {
        // waiters of one JVM queue in arrival order; each release wakes the next one (a 60 s retry interval
        // and holder TTL: without the wake-up every waiter sleeps >= 11.25 s, far beyond the bound)
        LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
        LockOptions waiting = holding.waitUpTo(Duration.ofSeconds(60)).retryInterval(Duration.ofSeconds(60));
        LockHandle first = locks.acquire(name, holding);
        java.util.Queue<Integer> order = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int id = i;
            waiters.add(CompletableFuture.runAsync(
                    () -> {
                        try (LockHandle h = locks.acquire(name, waiting)) {
                            order.add(id);
                            sleep(50);
                        }
                    },
                    runnable -> new Thread(runnable, "waiter-" + id).start()));
            Thread.sleep(300); // waiter i is in its wait before waiter i + 1 comes
        }
        assertTrue(order.isEmpty(), "a waiter got a held lock: " + order);
        long t0 = System.nanoTime();
        first.release();
        CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(order), "order in which the waiters got the lock");
        assertTrue(tookMs < 8_000, "four handoffs took " + tookMs + " ms (each without its wake-up >= 11,250 ms)");
    }

    @Test
    void aLateReleaseThatFindsAnotherHolderDoesNotSwallowTheNextWakeUp() throws Exception {
        // The local handoff counts a release as delivered before its message comes back. A release that finds
        // the lock taken by another JVM must take that back: it sends no message, and the other holder's
        // release message is then the only thing that can wake a waiter sleeping out a 60 s interval.
        LockManager other = newManager("app-b");
        LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
        LockOptions waiting = holding.waitUpTo(Duration.ofSeconds(60)).retryInterval(Duration.ofSeconds(60));
        LockHandle late = locks.acquire(name, holding.autoRefresh(false));
        vanishQuietly(name); // as if it expired: Redis sends no message for that
        LockHandle taker = other.acquire(name, holding);
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try (LockHandle h = locks.acquire(name, waiting)) {
                return System.nanoTime();
            }
        });
        Thread.sleep(600); // the waiter sleeps out its fallback interval now
        late.release(); // not ours any more: wakes the waiter early (it finds the lock busy) and must take that back
        Thread.sleep(1_000); // the waiter's quick retries after that wake-up are over
        assertFalse(waiter.isDone(), "the waiter got a lock another manager holds");
        long releasedAt = System.nanoTime();
        taker.release();
        long latencyMs = TimeUnit.NANOSECONDS.toMillis(waiter.get(30, TimeUnit.SECONDS) - releasedAt);
        assertTrue(
                latencyMs < 5_000,
                "the waiter took " + latencyMs + " ms after the holder's release (bound 5,000 ms;"
                        + " a swallowed release message leaves it asleep for >= 11,250 ms)");
    }

    /** Deletes the lock key of {@code lockName} on every node that has it, sending no release message. */
    private void vanishQuietly(String lockName) {
        for (dev.lockwarden.testing.RedisNode node : dataNodes()) {
            try {
                node.command("DEL", "lock:{" + lockName + "}");
            } catch (dev.lockwarden.testing.RedisReplyException movedOnCluster) {
                // a cluster master that does not own the key's slot
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void closingTheManagerReleasesItsLocks() {
        LockManager shortLived = newManager("short-lived");
        shortLived.acquire(name, TEN_SECONDS);
        shortLived.acquire(name + ":2", TEN_SECONDS.autoRefresh(false));
        shortLived.close();
        assertTrue(locks.inspector().get(name).isEmpty());
        assertTrue(locks.inspector().get(name + ":2").isEmpty());
    }

    @Test
    void lockNamesAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> locks.acquire(" ", TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> locks.acquire(null, TEN_SECONDS));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> locks.acquire("x".repeat(600), TEN_SECONDS));
        assertTrue(e.getMessage().contains("600") && e.getMessage().contains("512"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> locks.acquire("a{b}", TEN_SECONDS));
        assertTrue(e.getMessage().contains("a{b}") && e.getMessage().contains("hash tag"), e.getMessage());
    }

    @Test
    void holdAtLeastKeepsAnEarlyReleasedLockUntilThePeriodEnds() throws Exception {
        LockManager other = newManager("app-b");
        LockOptions once = LockOptions.ttl(Duration.ofSeconds(10)).holdAtLeast(Duration.ofMillis(1500));
        long t0 = System.nanoTime();
        LockHandle h = locks.acquire(name, once);
        h.release(); // the "job" took no time
        assertFalse(h.isHeld());
        // still taken, with its holder, by the first server's run
        LockInfo info = other.inspector().get(name).orElseThrow();
        assertEquals("app-a", info.holder().application());
        assertTrue(info.remainingTtl().toMillis() <= 1500, "kept " + info.remainingTtl() + ", not the full TTL");
        assertTrue(other.tryAcquire(name, once).isEmpty(), "a second run inside the period got the lock");
        LockNotAcquiredException busy = assertThrows(LockNotAcquiredException.class, () -> other.acquire(name, once));
        assertTrue(busy.holderRemainingTtl().orElseThrow().toMillis() <= 1500);
        // waiting for it: granted only once the period is over (the key expires, no release message)
        try (LockHandle next = other.acquire(name, once.waitUpTo(Duration.ofSeconds(5)))) {
            long after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(after >= 1_450, "granted after " + after + " ms, before holdAtLeast ended");
            assertTrue(after < 4_000, "granted only after " + after + " ms");
            assertTrue(next.fencingToken() > h.fencingToken());
        }
    }

    @Test
    void holdAtLeastDoesNotDelayAReleaseAfterThePeriod() throws Exception {
        LockHandle h =
                locks.acquire(name, LockOptions.ttl(Duration.ofSeconds(10)).holdAtLeast(Duration.ofMillis(200)));
        Thread.sleep(300);
        h.release();
        assertTrue(locks.inspector().get(name).isEmpty(), "released after the period, yet still there");
        assertTrue(newManager("app-b").tryAcquire(name, TEN_SECONDS).isPresent());
    }

    @Test
    void holdAtLeastIsValidated() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockOptions.ttl(Duration.ofSeconds(10)).holdAtLeast(Duration.ofSeconds(11)));
        assertTrue(e.getMessage().contains("holdAtLeast") && e.getMessage().contains("ttl"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> LockOptions.ttl(Duration.ofSeconds(10)).holdAtLeast(Duration.ofSeconds(-1)));
        assertThrows(
                NullPointerException.class,
                () -> LockOptions.ttl(Duration.ofSeconds(10)).holdAtLeast(null));
        assertEquals(
                Duration.ofSeconds(10),
                LockOptions.ttl(Duration.ofSeconds(10))
                        .holdAtLeast(Duration.ofSeconds(10))
                        .holdAtLeast());
    }

    @Test
    void extendSetsTheRemainingTtlOfALockWithoutAutoRefresh() throws Exception {
        LockManager other = newManager("app-b");
        LockHandle h =
                locks.acquire(name, LockOptions.ttl(Duration.ofMillis(800)).autoRefresh(false));
        assertTrue(h.extend(Duration.ofSeconds(5)));
        assertTrue(h.remainingTtl().toMillis() > 4_500, "remaining " + h.remainingTtl());
        Thread.sleep(1_200); // past the original TTL
        assertTrue(h.isHeld(), "lost its lock although extended");
        assertTrue(other.tryAcquire(name, TEN_SECONDS).isEmpty(), "extended lock was taken by another");
        assertTrue(other.inspector().get(name).orElseThrow().remainingTtl().toMillis() > 3_000);
        // shorter works too: the TTL is set, not added
        assertTrue(h.extend(Duration.ofMillis(400)));
        assertTrue(h.remainingTtl().toMillis() <= 400, "remaining " + h.remainingTtl());
        Thread.sleep(600);
        assertFalse(h.isHeld());
        try (LockHandle next = other.acquire(name, TEN_SECONDS)) {
            assertTrue(next.fencingToken() > h.fencingToken());
        }
        assertThrows(IllegalArgumentException.class, () -> h.extend(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> h.extend(Duration.ofDays(2)));
    }

    @Test
    void extendOfALockNoLongerOursReturnsFalseAndFiresOnLostOnce() throws Exception {
        LockManager operator = newManager("dashboard");
        LockHandle h =
                locks.acquire(name, LockOptions.ttl(Duration.ofSeconds(10)).autoRefresh(false));
        java.util.concurrent.atomic.AtomicInteger lost = new java.util.concurrent.atomic.AtomicInteger();
        h.onLost(e -> lost.incrementAndGet());
        assertTrue(operator.inspector().forceRelease(name, "alice").released());
        assertFalse(h.extend(Duration.ofSeconds(10)));
        assertFalse(h.isHeld());
        assertThrows(LockLostException.class, h::checkHeld);
        assertFalse(h.extend(Duration.ofSeconds(10)));
        Thread.sleep(200);
        assertEquals(1, lost.get(), "onLost calls");
        // nobody's lock was extended by the stale handle
        try (LockHandle next =
                operator.acquire(name, LockOptions.ttl(Duration.ofMillis(700)).autoRefresh(false))) {
            assertFalse(h.extend(Duration.ofSeconds(10)));
            Thread.sleep(900);
            assertTrue(
                    locks.tryAcquire(name, TEN_SECONDS).isPresent(),
                    "the stale extend prolonged another holder's lock");
        }
        LockHandle released = locks.acquire(name + ":r", TEN_SECONDS);
        released.release();
        assertFalse(released.extend(Duration.ofSeconds(10)), "extend after release");
    }

    @Test
    void extendOfAnAutoRefreshedLockChangesTheTtlTheWatchdogKeeps() throws Exception {
        LockHandle h = locks.acquire(name, LockOptions.ttl(Duration.ofMillis(900)));
        assertTrue(h.extend(Duration.ofSeconds(6)));
        Thread.sleep(2_500); // the watchdog refreshes at TTL/3 of the new TTL, not every 300 ms to 900 ms
        assertTrue(h.isHeld());
        long ttl = locks.inspector().get(name).orElseThrow().remainingTtl().toMillis();
        assertTrue(ttl > 2_000, "Redis TTL " + ttl + " ms: the watchdog went back to the old TTL");
        h.release();
    }

    @Test
    void hostileNamesEitherWorkExactlyOrAreRejectedClearly() throws Exception {
        LockManager other = newManager("app-b");
        try (LockHandle sentinel = other.acquire("hostile:sentinel", TEN_SECONDS)) {
            java.util.List<String> working = java.util.List.of(
                    "q'uote\"double",
                    "lua]] end redis.call('FLUSHALL') --",
                    "')) redis.call('DEL', KEYS[1]) --[[",
                    "%s %d $(jndi:ldap://x) \\ ; DROP TABLE locks",
                    "zürich-日本-🔒-ß",
                    "*?[glob]",
                    "x".repeat(512),
                    "€".repeat(170) + "xx"); // 512 bytes in UTF-8
            for (String n : working) {
                String previousThread = Thread.currentThread().getName();
                Thread.currentThread().setName("thread \"'\u00e9 redis.call('FLUSHALL')");
                LockHandle h;
                try {
                    h = locks.acquire(n, TEN_SECONDS.source(LockSource.API, "m'\"() end --"));
                } finally {
                    Thread.currentThread().setName(previousThread);
                }
                assertEquals(n, h.name());
                LockInfo info = other.inspector().get(n).orElseThrow(() -> new AssertionError("not listed: " + n));
                assertEquals(n, info.name());
                assertEquals("app-a", info.holder().application());
                assertTrue(other.tryAcquire(n, TEN_SECONDS).isEmpty(), "a second holder got " + n);
                h.release();
                assertTrue(other.inspector().get(n).isEmpty(), "still there after release: " + n);
            }
            assertTrue(sentinel.isHeld(), "another lock was touched");
            assertEquals(
                    "app-b",
                    other.inspector()
                            .get("hostile:sentinel")
                            .orElseThrow()
                            .holder()
                            .application());
        }
        java.util.Map<String, String> rejected = new java.util.LinkedHashMap<>();
        rejected.put("", "blank");
        rejected.put("   ", "blank");
        rejected.put("x".repeat(513), "513 bytes");
        rejected.put("€".repeat(170) + "xxx", "513 bytes");
        rejected.put("y".repeat(1 << 20), "bytes long");
        rejected.put("line\nbreak", "control character");
        rejected.put("tab\there", "control character");
        rejected.put("esc\u001b[31mred", "control character");
        rejected.put("brace{tag}", "hash tag");
        rejected.put("${jndi:ldap://x}", "hash tag");
        for (java.util.Map.Entry<String, String> e : rejected.entrySet()) {
            IllegalArgumentException ex = assertThrows(
                    IllegalArgumentException.class,
                    () -> locks.acquire(e.getKey(), TEN_SECONDS),
                    "accepted " + e.getKey().length() + " chars");
            assertTrue(
                    ex.getMessage().contains(e.getValue()),
                    ex.getMessage().length() > 300 ? ex.getMessage().substring(0, 300) : ex.getMessage());
            assertTrue(
                    ex.getMessage().length() < 1_000,
                    "message of " + ex.getMessage().length() + " chars");
            assertFalse(ex.getMessage().contains("\n"), "a newline in the message: " + ex.getMessage());
        }
    }
}
