package dev.lockwarden.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The provider under ShedLock's own executor (what {@code @SchedulerLock} runs through): the job's
 * fence, LockAssert and LockExtender, odd names, Redis down, and an operator's force-release.
 */
class ShedLockIntegrationTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private LockManager locks;
    private LockwardenLockProvider provider;
    private LockingTaskExecutor executor;

    @BeforeEach
    void start() {
        REDIS.flushAll();
        locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("jobs")
                .shutdownHook(false)
                .build();
        provider = new LockwardenLockProvider(locks);
        executor = new DefaultLockingTaskExecutor(provider);
    }

    @AfterEach
    void stop() {
        locks.close();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void theJobSeesItsFenceAndItRisesFromRunToRun() throws Throwable {
        onAFreshThread(this::threeRunsSeeRisingFences);
    }

    private void threeRunsSeeRisingFences() {
        List<Long> fences = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            executor.executeWithLock(
                    (Runnable) () -> {
                        LockAssert.assertLocked();
                        JobLock lock = LockwardenLockProvider.currentLock();
                        assertEquals("report", lock.jobName());
                        assertTrue(lock.isHeld());
                        assertEquals(locks.inspector().fenceOf("report"), lock.fencingToken());
                        fences.add(LockwardenLockProvider.currentFence());
                    },
                    config("report"));
        }
        assertTrue(fences.get(0) < fences.get(1) && fences.get(1) < fences.get(2), fences.toString());
        assertThrows(IllegalStateException.class, LockwardenLockProvider::currentFence, "after the job");
    }

    @Test
    void outsideAJobThereIsNoCurrentLock() throws Throwable {
        onAFreshThread(() -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, LockwardenLockProvider::currentLock);
            assertTrue(e.getMessage().contains("@SchedulerLock"), e.getMessage());
        });
    }

    /** A thread of its own, as a scheduler's: no lock another test took directly (without unlock) on the test thread. */
    private static void onAFreshThread(Runnable body) throws Throwable {
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(
                () -> {
                    try {
                        body.run();
                    } catch (Throwable e) {
                        failed[0] = e;
                    }
                },
                "scheduler-1");
        t.start();
        t.join(30_000);
        assertFalse(t.isAlive(), "the job thread did not finish");
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    @Test
    void nestedJobsSeeTheirOwnLock() {
        executor.executeWithLock(
                (Runnable) () -> {
                    long outer = LockwardenLockProvider.currentFence();
                    executor.executeWithLock(
                            (Runnable) () -> assertEquals(
                                    "inner",
                                    LockwardenLockProvider.currentLock().jobName()),
                            config("inner"));
                    assertEquals(outer, LockwardenLockProvider.currentFence());
                    assertEquals("outer", LockwardenLockProvider.currentLock().jobName());
                },
                config("outer"));
    }

    @Test
    void lockExtenderExtendsTheRunningJobsLock() {
        executor.executeWithLock(
                (Runnable) () -> {
                    long fence = LockwardenLockProvider.currentFence();
                    LockExtender.extendActiveLock(Duration.ofMinutes(10), Duration.ZERO);
                    assertTrue(locks.inspector()
                                    .get("long-job")
                                    .orElseThrow()
                                    .remainingTtl()
                                    .compareTo(Duration.ofMinutes(9))
                            > 0);
                    assertEquals(fence, LockwardenLockProvider.currentFence(), "the same lock, extended");
                },
                config("long-job"));
        assertTrue(locks.inspector().get("long-job").isEmpty());
    }

    @Test
    void oddNamesAreMappedAndStillExclusive() {
        for (String name : List.of("{tenant}-job", " ", "line\nbreak", "y".repeat(1_000))) {
            String mapped = LockwardenLockProvider.lockNameOf(name);
            SimpleLock lock = provider.lock(config(name)).orElseThrow();
            assertTrue(provider.lock(config(name)).isEmpty(), name);
            LockInfo info = locks.inspector().get(mapped).orElseThrow();
            String shown = name.length() > 200 ? name.substring(0, 199) + "\u2026" : name.replace('\n', '?');
            assertEquals(shown, info.method(), "the job's name, control characters as '?', long ones cut");
            lock.unlock();
            assertTrue(locks.inspector().get(mapped).isEmpty());
        }
    }

    @Test
    void redisDownIsAnErrorAndTheJobDoesNotRun() {
        REDIS.node(0).kill();
        AtomicBoolean ran = new AtomicBoolean();
        assertThrows(
                LockStoreException.class,
                () -> executor.executeWithLock((Runnable) () -> ran.set(true), config("report")));
        assertFalse(ran.get());
    }

    @Test
    void anOperatorsForceReleaseFreesAStuckJobsLockAndStalesItsFence() {
        SimpleLock stuck = provider.lock(config("stuck-job")).orElseThrow();
        long stuckFence = locks.inspector().fenceOf("stuck-job");
        locks.inspector().forceRelease("stuck-job", "ops@example.com");
        LockManager other = LockManager.builder()
                .redis(REDIS.uri())
                .application("jobs-2")
                .shutdownHook(false)
                .build();
        try (other) {
            SimpleLock next = new LockwardenLockProvider(other)
                    .lock(config("stuck-job"))
                    .orElseThrow(() -> new AssertionError("free for the next run at once"));
            LockInfo now = locks.inspector().get("stuck-job").orElseThrow();
            assertTrue(now.fencingToken() > stuckFence, "the stuck job's fence is stale: " + stuckFence + " vs " + now);
            stuck.unlock(); // the stuck job finishing late leaves the next holder's lock alone
            assertEquals(
                    now.fencingToken(),
                    locks.inspector().get("stuck-job").orElseThrow().fencingToken());
            next.unlock();
        }
    }

    @Test
    void lockAtMostForThatHasRunOutFailsBeforeAnyLock() {
        LockConfiguration old = new LockConfiguration(
                ClockProvider.now().minusSeconds(10), "late", Duration.ofSeconds(5), Duration.ZERO);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> provider.lock(old));
        assertTrue(e.getMessage().contains("'late'") && e.getMessage().contains("run out"), e.getMessage());
        assertTrue(locks.inspector().get("late").isEmpty());
    }

    @Test
    void aThreadHoldingTheNameThroughTheManagersApiGetsItAgainUnlessReentrancyIsOff() throws Exception {
        try (LockHandle held = locks.acquire("shared", LockOptions.ttl(Duration.ofSeconds(30)))) {
            assertTrue(provider.lock(config("shared")).isPresent(), "the manager's per-thread reentrancy");
        }
        LockManager plain = LockManager.builder()
                .redis(REDIS.uri())
                .application("jobs")
                .reentrant(false)
                .shutdownHook(false)
                .build();
        try (plain;
                LockHandle held = plain.acquire("shared", LockOptions.ttl(Duration.ofSeconds(30)))) {
            assertTrue(new LockwardenLockProvider(plain).lock(config("shared")).isEmpty());
        }
    }
}
