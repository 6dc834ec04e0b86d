package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * A release sends its release message only when someone waits: a waiter's busy attempt marks the lock, the
 * holder's release sees the mark and publishes, and a release nobody waited for publishes nothing. The
 * waiter here is in another manager (its own pub/sub connection, as in another JVM) with a 10 s retry
 * interval, so only the message can wake it within a second.
 */
class WaiterMarkTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions HOLD = LockOptions.ttl(Duration.ofSeconds(30));
    private static final LockOptions WAIT =
            HOLD.waitUpTo(Duration.ofSeconds(20)).retryInterval(Duration.ofSeconds(10));

    @Test
    void aReleaseNobodyWaitsForPublishesNothing() throws Exception {
        try (LockManager a = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("a")
                        .build();
                RedisClient raw = RedisClient.create(REDIS.uri())) {
            long before = calls(raw, "publish");
            for (int i = 0; i < 20; i++) {
                try (LockHandle h = a.acquire("mark:quiet:" + i, HOLD)) {
                    assertTrue(h.fencingToken() > 0);
                }
            }
            assertEquals(before, calls(raw, "publish"), "releases nobody waited for sent release messages");
        }
    }

    @Test
    void aWaiterInAnotherManagerIsWokenByTheReleaseMessage() throws Exception {
        try (LockManager a = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("a")
                        .build();
                LockManager b = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("b")
                        .build();
                RedisClient raw = RedisClient.create(REDIS.uri())) {
            long before = calls(raw, "publish");
            long ms = WakeLatency.afterRelease(a, b, "mark:waited", HOLD, WAIT, 600, Duration.ofSeconds(15));
            assertTrue(
                    ms < 1_000,
                    "waiter got the lock " + ms + " ms after the release: its fallback retry, not the message");
            assertTrue(calls(raw, "publish") > before, "the release of a waited-for lock sent no message");
        }
    }

    @Test
    void aReleaseHandingTheLockToItsOwnWaiterSendsTheMessageItCountsOn() throws Exception {
        // w3 queues behind w2 in the same manager and never tries before w2's release, so it set no mark; w2's
        // release hands it the lock and must send the message all the same: the hand-over counts on it, and a
        // missing one would swallow the next release message of another manager
        try (LockManager b = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("b")
                        .build();
                RedisClient raw = RedisClient.create(REDIS.uri())) {
            String name = "mark:own";
            LockHandle first = b.acquire(name, HOLD);
            CountDownLatch w2Holds = new CountDownLatch(1);
            CountDownLatch w2May = new CountDownLatch(1);
            FutureTask<Void> w2 = new FutureTask<>(() -> {
                try (LockHandle h = b.acquire(name, WAIT)) {
                    w2Holds.countDown();
                    await(w2May);
                }
                return null;
            });
            FutureTask<Long> w3 = new FutureTask<>(() -> {
                try (LockHandle h = b.acquire(name, WAIT)) {
                    return System.nanoTime();
                }
            });
            // each waiter must be queued before the next step: a thread started late on a busy machine would
            // otherwise find the lock free and the test would prove nothing (or fail for the wrong reason)
            Thread t2 = start(w2, "w2");
            awaitQueued(t2);
            Thread t3 = start(w3, "w3");
            awaitQueued(t3);
            first.release();
            assertTrue(w2Holds.await(5, TimeUnit.SECONDS), "w2 was not handed the lock");
            awaitQueued(t3); // still queued behind w2's hold, without having marked the lock since
            long before = calls(raw, "publish");
            long released = System.nanoTime();
            w2May.countDown();
            w2.get(5, TimeUnit.SECONDS);
            long ms = TimeUnit.NANOSECONDS.toMillis(w3.get(15, TimeUnit.SECONDS) - released);
            assertTrue(ms < 1_000, "w3 got the lock " + ms + " ms after w2's release");
            assertTrue(calls(raw, "publish") > before, "the hand-over to a waiter without a mark sent no message");
        }
    }

    private static Thread start(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits until {@code t} sleeps in this manager's wake-up queue (a local waiter), at most 10 s. */
    private static void awaitQueued(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Thread.State st = t.getState();
            if (st == Thread.State.TIMED_WAITING || st == Thread.State.WAITING) {
                for (StackTraceElement e : t.getStackTrace()) {
                    if (e.getClassName().endsWith("internal.ReleaseQueue")
                            && e.getMethodName().equals("await")) {
                        return;
                    }
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError(t.getName() + " did not queue for the lock within 10 s: " + t.getState());
    }

    private static void await(CountDownLatch l) {
        try {
            assertTrue(l.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Calls of {@code command} so far (INFO commandstats; scripts' inner commands included). */
    private static long calls(RedisClient raw, String command) {
        for (String line : raw.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }
}
