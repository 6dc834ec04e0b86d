package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LocalPoolBusyException;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * A Redis host that never answers — a redis-server frozen with SIGSTOP (the kernel still accepts
 * connections) and a loopback socket that accepts and never replies: every call fails with
 * {@link LockStoreException} within its timeout (never "busy", never a hang), held locks are
 * reported lost once their validity passes (not before), and once the host answers again new
 * acquisitions work. Each phase is bounded in time.
 */
class SilentHostTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** Generous for a loaded 2-core machine, yet far below "hangs". */
    private static final long SLACK_MS = 2_000;

    /** Runs {@code call}, expects a LockStoreException (not busy, not a local pool wait) within {@code boundMs}. */
    private static long failsWithStoreError(Executable call, long boundMs, String what) {
        long t0 = System.nanoTime();
        Throwable t = assertThrows(Throwable.class, call, what);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertInstanceOf(LockStoreException.class, t, what + ": " + t);
        assertFalse(t instanceof LocalPoolBusyException || t instanceof LockNotAcquiredException, what + ": " + t);
        assertTrue(ms < boundMs, what + " took " + ms + " ms (bound " + boundMs + " ms)");
        return ms;
    }

    @Test
    void frozenRedisFailsCallsWithinTimeoutsLosesLocksAfterValidityAndRecovers() throws Exception {
        REDIS.flushAll();
        try (LockManager locks = LockManager.builder()
                .redis(REDIS.uri())
                .application("silent")
                .timeout(TIMEOUT)
                .shutdownHook(false)
                .build()) {
            Duration ttl = Duration.ofMillis(2_000);
            long acquiredAt = System.nanoTime();
            LockHandle auto = locks.acquire("silent:auto", LockOptions.ttl(ttl));
            LockHandle manual =
                    locks.acquire("silent:manual", LockOptions.ttl(ttl).autoRefresh(false));
            BlockingQueue<LockLostEvent> lost = new ArrayBlockingQueue<>(2);
            auto.onLost(lost::add);
            long fenceBefore = auto.fencingToken();

            REDIS.node(0).pause();
            try {
                failsWithStoreError(
                        () -> manual.extend(Duration.ofSeconds(5)), TIMEOUT.toMillis() + SLACK_MS, "extend");
                failsWithStoreError(
                        () -> locks.tryAcquire("silent:new", LockOptions.ttl(Duration.ofSeconds(5))),
                        TIMEOUT.toMillis() + SLACK_MS,
                        "tryAcquire");
                failsWithStoreError(
                        () -> locks.acquire(
                                "silent:new",
                                LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(1))),
                        1_000 + TIMEOUT.toMillis() + SLACK_MS,
                        "acquire waiting up to 1 s");
                // the watchdog cannot refresh: the lock is reported lost when its validity passes, not before
                LockLostEvent e = lost.poll(ttl.toMillis() + SLACK_MS, TimeUnit.MILLISECONDS);
                long lostAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acquiredAt);
                assertNotNull(e, "held lock not reported lost within its TTL + " + SLACK_MS + " ms");
                assertTrue(
                        lostAfter >= ttl.toMillis() - 100,
                        "reported lost after " + lostAfter + " ms, before its validity");
                assertTrue(e.reason().contains("TTL passed before Redis confirmed a refresh"), e.reason());
                assertFalse(auto.isHeld());
                assertFalse(manual.isHeld(), "validity passed without a confirmed extend");
            } finally {
                REDIS.node(0).resume();
            }

            // answering again: new acquisitions work (the frozen server's keys have expired meanwhile)
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            LockHandle again = null;
            while (again == null && System.nanoTime() < until) {
                try {
                    again = locks.acquire(
                            "silent:auto",
                            LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(1)));
                } catch (LockStoreException stillRecovering) {
                    Thread.sleep(100);
                }
            }
            assertNotNull(again, "no acquisition within 5 s of SIGCONT");
            assertTrue(again.fencingToken() > fenceBefore);
            again.release();
            // the attempts on silent:new that timed out while Redis was frozen may run now that it resumed (a
            // stalled server runs what it already received, here on the connection acquire and release share):
            // this JVM gives their tokens back before its next attempt on the name, so the name is free at once
            locks.acquire("silent:new", LockOptions.ttl(Duration.ofSeconds(5))).release();
        }
    }

    @Test
    void socketThatAcceptsButNeverRepliesFailsEveryCallWithinTheTimeout() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(
                    () -> {
                        while (!silent.isClosed()) {
                            try {
                                accepted.add(silent.accept()); // reads nothing, writes nothing
                            } catch (IOException closed) {
                                return;
                            }
                        }
                    },
                    "silent-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            String uri = "redis://127.0.0.1:" + silent.getLocalPort();

            // verifyOnBuild: build() itself fails loudly instead of handing out a manager that cannot lock
            failsWithStoreError(
                    () -> LockManager.builder()
                            .redis(uri)
                            .application("silent-socket")
                            .timeout(TIMEOUT)
                            .shutdownHook(false)
                            .build()
                            .close(),
                    TIMEOUT.toMillis() * 2 + SLACK_MS,
                    "build");

            LockManager locks = LockManager.builder()
                    .redis(uri)
                    .application("silent-socket")
                    .timeout(TIMEOUT)
                    .verifyOnBuild(false)
                    .shutdownHook(false)
                    .build();
            try {
                failsWithStoreError(
                        () -> locks.tryAcquire("quiet:1", LockOptions.ttl(Duration.ofSeconds(5))),
                        TIMEOUT.toMillis() + SLACK_MS,
                        "tryAcquire");
                failsWithStoreError(
                        () -> locks.acquire(
                                "quiet:1",
                                LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(1))),
                        1_000 + TIMEOUT.toMillis() + SLACK_MS,
                        "acquire waiting up to 1 s");
                assertTrue(accepted.size() >= 1, "the client did connect: the host accepts, it just never answers");
            } finally {
                long t0 = System.nanoTime();
                locks.close();
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < 5_000 + SLACK_MS, "close took " + ms + " ms");
            }
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
