package dev.lockwarden.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What ShedLock's own provider tests ask of a lock provider, run unchanged against every Lockwarden
 * topology (single node, Redlock, Cluster, Sentinel): lock, a second lock empty, expiry after lockAtMostFor,
 * lock right after unlock, lockAtLeastFor, extend, token-checked unlock and extend, fuzz tests with
 * threads and with two JVMs (exact totals, and a control run without the lock that loses updates).
 */
abstract class AbstractShedLockContractTest {
    static final String NAME = "name";
    /** The fuzz tests' counters live here, apart from the locks (a cluster has no plain key space to share). */
    @RegisterExtension
    static final RedisServerExtension DATA = RedisServerExtension.nodes(1);

    private final List<LockManager> managers = new ArrayList<>();
    LockManager locks;
    LockProvider provider;

    /** The servers of the subclass. */
    abstract RedisServerExtension servers();

    /** Empties the lock store before each test. */
    void flushAll() {
        servers().flushAll();
    }

    /** The {@code lockwarden.*} settings that point a manager (here or in a child JVM) at them. */
    abstract Map<String, String> settings();

    @BeforeEach
    void start() {
        flushAll();
        DATA.flushAll();
        locks = manager("shedlock-contract");
        provider = new LockwardenLockProvider(locks);
    }

    @AfterEach
    void stop() {
        managers.forEach(LockManager::close);
    }

    /** A manager as another application instance would have one; closed after the test. */
    LockManager manager(String application) {
        LockManager.Builder b = LockManager.builder().application(application).shutdownHook(false);
        Map<String, String> s = settings();
        if (s.containsKey("lockwarden.redlock")) {
            b.redlock(s.get("lockwarden.redlock").split(","));
        } else if (s.containsKey("lockwarden.cluster")) {
            b.cluster(s.get("lockwarden.cluster").split(","));
        } else if (s.containsKey("lockwarden.sentinel")) {
            String[] master = s.get("lockwarden.sentinel").split("@", 2); // mymaster@uri,uri,...
            b.sentinel(master[0], master[1].split(","));
        } else {
            b.redis(s.get("lockwarden.redis"));
        }
        LockManager m = b.build();
        managers.add(m);
        return m;
    }

    static LockConfiguration config(String name) {
        return config(name, Duration.ofMinutes(5), Duration.ZERO);
    }

    static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(ClockProvider.now(), name, atMost, atLeast);
    }

    Optional<LockInfo> inRedis(String name) {
        return locks.inspector().get(name);
    }

    void assertLocked(String name) {
        assertTrue(inRedis(name).isPresent(), name + " should be locked in Redis");
    }

    void assertUnlocked(String name) {
        assertTrue(inRedis(name).isEmpty(), name + " should be free in Redis, is " + inRedis(name));
    }

    /** Polls up to {@code bound} for an expiry Redis performs on its own clock. */
    void awaitUnlocked(String name, Duration bound) throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (inRedis(name).isPresent() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertUnlocked(name);
    }

    @Test
    void lockIsTakenAndUnlockFreesIt() {
        Optional<SimpleLock> lock = provider.lock(config(NAME));
        assertTrue(lock.isPresent());
        assertLocked(NAME);
        lock.get().unlock();
        assertUnlocked(NAME);
    }

    @Test
    void holderShowsShedLockSourceAndJobName() {
        SimpleLock lock = provider.lock(config("nightly-report")).orElseThrow();
        LockInfo info = inRedis("nightly-report").orElseThrow();
        assertEquals(LockSource.SHEDLOCK, info.source());
        assertEquals("nightly-report", info.method());
        assertEquals("shedlock-contract", info.holder().application());
        assertEquals(Thread.currentThread().getName(), info.holder().thread());
        assertFalse(info.holder().host().isEmpty());
        assertEquals(LockwardenLockProvider.currentFence(), info.fencingToken());
        assertTrue(
                info.remainingTtl().compareTo(Duration.ofMinutes(4)) > 0,
                "TTL is lockAtMostFor: " + info.remainingTtl());
        lock.unlock();
    }

    @Test
    void secondLockIsEmptyFromThisThreadAnotherThreadAndAnotherInstance() throws Exception {
        SimpleLock lock = provider.lock(config(NAME)).orElseThrow();
        assertTrue(provider.lock(config(NAME)).isEmpty(), "same thread: not reentrant");
        assertTrue(new LockwardenLockProvider(locks).lock(config(NAME)).isEmpty(), "another provider, same manager");
        assertTrue(
                CompletableFuture.supplyAsync(() -> provider.lock(config(NAME)))
                        .get()
                        .isEmpty(),
                "another thread");
        assertTrue(
                new LockwardenLockProvider(manager("other-instance"))
                        .lock(config(NAME))
                        .isEmpty(),
                "another instance");
        lock.unlock();
        assertTrue(provider.lock(config(NAME)).isPresent());
    }

    @Test
    void twoNamesAreIndependent() {
        SimpleLock one = provider.lock(config(NAME)).orElseThrow();
        SimpleLock two = provider.lock(config("name2")).orElseThrow();
        one.unlock();
        two.unlock();
        assertUnlocked(NAME);
        assertUnlocked("name2");
    }

    @Test
    void locksTwiceInARow() {
        provider.lock(config(NAME)).orElseThrow().unlock();
        provider.lock(config(NAME)).orElseThrow().unlock();
    }

    @Test
    void lockAtMostForIsTheTtlWithoutWatchdog() throws Exception {
        assertTrue(provider.lock(config(NAME, Duration.ofMillis(300), Duration.ZERO))
                .isPresent());
        assertTrue(provider.lock(config(NAME)).isEmpty());
        // a watchdog would renew it every 100 ms; without one Redis drops it after 300 ms
        awaitUnlocked(NAME, Duration.ofMillis(1_000));
        SimpleLock next = new LockwardenLockProvider(manager("other-instance"))
                .lock(config(NAME, Duration.ofMillis(300), Duration.ZERO))
                .orElseThrow();
        next.unlock();
    }

    @Test
    void shortLockAtMostForExpires() throws Exception {
        assertTrue(provider.lock(config(NAME, Duration.ofMillis(50), Duration.ZERO))
                .isPresent());
        Thread.sleep(55);
        awaitUnlocked(NAME, Duration.ofMillis(200));
        provider.lock(config(NAME, Duration.ofMillis(50), Duration.ZERO))
                .orElseThrow()
                .unlock();
    }

    @Test
    void locksRightAfterUnlock() {
        for (int i = 0; i < 10; i++) {
            Optional<SimpleLock> lock = provider.lock(config(NAME));
            assertTrue(provider.lock(config(NAME)).isEmpty());
            assertTrue(lock.isPresent(), "round " + i);
            lock.get().unlock();
        }
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterAnEarlyUnlock() throws Exception {
        Duration atLeast = Duration.ofSeconds(1);
        provider.lock(config(NAME, atLeast.multipliedBy(4), atLeast))
                .orElseThrow()
                .unlock();
        assertTrue(provider.lock(config(NAME)).isEmpty(), "held for lockAtLeastFor after unlock");
        assertTrue(new LockwardenLockProvider(manager("other-instance"))
                .lock(config(NAME))
                .isEmpty());
        Duration left = inRedis(NAME).orElseThrow().remainingTtl();
        assertTrue(
                left.compareTo(Duration.ofMillis(500)) > 0 && left.compareTo(atLeast) <= 0,
                "kept until lockAtLeastUntil, not lockAtMostUntil: " + left);
        awaitUnlocked(NAME, Duration.ofSeconds(2));
        provider.lock(config(NAME)).orElseThrow().unlock();
    }

    @Test
    void extendKeepsTheLockPastItsFirstTtl() throws Exception {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofMillis(1_000), Duration.ZERO))
                .orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        Thread.sleep(1_100);
        assertLocked(NAME);
        assertTrue(inRedis(NAME).orElseThrow().remainingTtl().compareTo(Duration.ofSeconds(7)) > 0);
        extended.unlock();
        assertUnlocked(NAME);
    }

    @Test
    void extendWithLockAtLeastForKeepsTheLockAfterUnlock() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(10), Duration.ZERO))
                .orElseThrow();
        SimpleLock extended =
                lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        extended.unlock();
        assertLocked(NAME);
        Duration left = inRedis(NAME).orElseThrow().remainingTtl();
        assertTrue(
                left.compareTo(Duration.ofSeconds(8)) > 0 && left.compareTo(Duration.ofSeconds(9)) <= 0,
                "kept " + left);
        assertTrue(provider.lock(config(NAME)).isEmpty());
    }

    @Test
    void unlockedLockCannotBeExtendedOrUnlockedAgain() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(1), Duration.ZERO))
                .orElseThrow();
        lock.unlock();
        assertUnlocked(NAME);
        assertThrows(IllegalStateException.class, () -> lock.extend(Duration.ofSeconds(10), Duration.ZERO));
        assertThrows(IllegalStateException.class, lock::unlock);
        assertUnlocked(NAME);
    }

    @Test
    void extendedLockCannotBeExtendedOrUnlockedAgain() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(10), Duration.ZERO))
                .orElseThrow();
        SimpleLock extended =
                lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        assertThrows(IllegalStateException.class, () -> lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)));
        assertThrows(IllegalStateException.class, lock::unlock);
        assertLocked(NAME);
        extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow().unlock();
        assertUnlocked(NAME);
    }

    @Test
    void expiredLockCannotBeExtended() throws Exception {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        awaitUnlocked(NAME, Duration.ofSeconds(1));
        assertTrue(lock.extend(Duration.ofSeconds(10), Duration.ZERO).isEmpty());
        assertUnlocked(NAME);
        assertThrows(IllegalStateException.class, lock::unlock, "an extend attempt ends the lock, as in ShedLock");
    }

    @Test
    void unlockAndExtendAfterExpiryNeverTouchTheNextHoldersLock() throws Exception {
        SimpleLock old = provider.lock(config(NAME, Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        SimpleLock older = provider.lock(config("name2", Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        awaitUnlocked(NAME, Duration.ofSeconds(1));
        awaitUnlocked("name2", Duration.ofSeconds(1));
        LockwardenLockProvider other = new LockwardenLockProvider(manager("other-instance"));
        SimpleLock theirs = other.lock(config(NAME)).orElseThrow();
        SimpleLock theirs2 = other.lock(config("name2")).orElseThrow();
        long fence = inRedis(NAME).orElseThrow().fencingToken();
        old.unlock();
        assertTrue(older.extend(Duration.ofMinutes(5), Duration.ZERO).isEmpty());
        assertEquals(fence, inRedis(NAME).orElseThrow().fencingToken(), "the next holder keeps its lock");
        assertEquals("other-instance", inRedis("name2").orElseThrow().holder().application());
        theirs.unlock();
        theirs2.unlock();
    }

    @Test
    void lockAtMostForLongerThanADayFailsBeforeAnyLock() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> provider.lock(config(NAME, Duration.ofDays(2), Duration.ZERO)));
        assertTrue(e.getMessage().contains("'name'") && e.getMessage().contains("PT24H"), e.getMessage());
        assertUnlocked(NAME);
    }

    @Test
    void fuzzWithThreadsCountsExactly() throws Exception {
        ShedLockFuzz.Totals totals = ShedLockFuzz.threads(provider, 8, 25, true);
        assertEquals(ShedLockFuzz.expected(8, 25), totals.job1(), "lock1");
        assertEquals(ShedLockFuzz.expected(8, 25), totals.job2(), "lock2");
    }

    @Test
    void fuzzWithThreadsWithoutTheLockLosesUpdates() throws Exception {
        ShedLockFuzz.Totals totals = ShedLockFuzz.threads(provider, 8, 25, false);
        System.out.println(
                "control without lock, threads: " + totals + " of " + ShedLockFuzz.expected(8, 25) + " each");
        assertTrue(totals.job1() < ShedLockFuzz.expected(8, 25), "control run lost no update: " + totals);
    }

    @Test
    void fuzzWithTwoJvmsCountsExactly() throws Exception {
        long total = ShedLockFuzz.jvms(settings(), DATA.uri(), 2, 4, 25, true);
        assertEquals(2 * 4 * 25, total);
    }

    @Test
    void fuzzWithTwoJvmsWithoutTheLockLosesUpdates() throws Exception {
        long total = ShedLockFuzz.jvms(settings(), DATA.uri(), 2, 4, 25, false);
        System.out.println("control without lock, two JVMs: " + total + " of " + 2 * 4 * 25);
        assertTrue(total < 2 * 4 * 25, "control run lost no update: " + total);
    }
}
