package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redlock under node faults on 5 real redis-server processes: SIGKILL, SIGSTOP and restarts with
 * empty data. The extension revives every node before each test.
 */
class RedlockFaultTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    private static final LockOptions ONE_SECOND = LockOptions.ttl(Duration.ofSeconds(1));

    private final List<LockManager> managers = new ArrayList<>();
    private LockManager locks;
    private LockManager other;
    private String name;
    private long lastFence;

    @BeforeEach
    void setUp(TestInfo info) {
        REDIS.flushAll();
        locks = manager("app-a");
        other = manager("app-b");
        name = "fault:" + info.getTestMethod().orElseThrow().getName();
        lastFence = 0;
    }

    @AfterEach
    void tearDown() {
        managers.forEach(LockManager::close);
    }

    private LockManager manager(String app) {
        LockManager m = LockManager.builder()
                .redlock(REDIS.uris().toArray(String[]::new))
                .application(app)
                .timeout(Duration.ofSeconds(1))
                .build();
        managers.add(m);
        return m;
    }

    /** Takes and gives back the lock once, checking that its fence is above every earlier one. */
    private void takeAndCheckFence(LockManager m) {
        try (LockHandle h = m.acquire(name, ONE_SECOND.waitUpTo(Duration.ofSeconds(2)))) {
            assertTrue(h.fencingToken() > lastFence, "fence " + h.fencingToken() + " after " + lastFence);
            lastFence = h.fencingToken();
        }
    }

    @Test
    void twoOfFiveKilledAcquisitionsContinue() throws Exception {
        LockHandle held = locks.acquire(name, ONE_SECOND);
        lastFence = held.fencingToken();
        REDIS.node(1).kill();
        REDIS.node(3).kill();
        Thread.sleep(1_500); // past the TTL: only refreshes confirmed by the 3 live nodes keep it
        assertTrue(held.isHeld(), "a majority still holds it: " + held);
        assertTrue(other.tryAcquire(name, ONE_SECOND).isEmpty(), "3 of 5 hold it: busy, not an error");
        held.release();
        for (int i = 0; i < 20; i++) {
            takeAndCheckFence(i % 2 == 0 ? locks : other);
        }
    }

    @Test
    void threeOfFiveKilledAcquireFailsWithStoreExceptionAndHolderLosesTheLock() throws Exception {
        LockHandle held = locks.acquire(name, ONE_SECOND);
        CountDownLatch lost = new CountDownLatch(1);
        held.onLost(e -> lost.countDown());
        REDIS.node(0).kill();
        REDIS.node(2).kill();
        REDIS.node(4).kill();
        LockOptions waiting = ONE_SECOND.waitUpTo(Duration.ofSeconds(2));
        for (String n : List.of(name, name + ":free")) {
            long t0 = System.nanoTime();
            LockStoreException e = assertThrows(LockStoreException.class, () -> other.acquire(n, waiting));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms < 2_000, "failed after " + ms + " ms, beyond the 2 s wait budget");
            assertTrue(e.getMessage().contains("3 of 5 nodes failed"), e.getMessage());
        }
        assertTrue(lost.await(3, TimeUnit.SECONDS), "the holder still believes it holds the lock: " + held);
        assertFalse(held.isHeld());
    }

    /**
     * Three of five nodes down, but their failures arrive after the two live nodes said "busy": still a
     * store error, never "busy" (2 busy + 1 failed used to end the vote before the other two failed).
     */
    @Test
    void aMajorityDownIsAStoreErrorEvenWhenTheBusyAnswersComeFirst() throws Exception {
        LockHandle held = locks.acquire(name, ONE_SECOND);
        try (CrashingRelay to0 = new CrashingRelay(REDIS.node(0).port());
                CrashingRelay to2 = new CrashingRelay(REDIS.node(2).port());
                CrashingRelay to4 = new CrashingRelay(REDIS.node(4).port())) {
            LockManager late = LockManager.builder()
                    .redlock(
                            to0.uri(),
                            REDIS.node(1).uri(),
                            to2.uri(),
                            REDIS.node(3).uri(),
                            to4.uri())
                    .application("app-late")
                    .timeout(Duration.ofSeconds(1))
                    .build();
            managers.add(late);
            to0.crash();
            to2.crash();
            to4.crash();
            for (int i = 0; i < 5; i++) {
                LockStoreException e = assertThrows(
                        LockStoreException.class, () -> late.tryAcquire(name, ONE_SECOND), "reported busy");
                assertTrue(e.getMessage().contains("3 of 5 nodes failed"), e.getMessage());
            }
        }
        held.release();
    }

    /**
     * A loopback relay in front of a node that, once {@linkplain #crash() crashed}, answers nothing: each
     * connection that sends a request is closed 30 ms later, as a node dying mid-call. Late on purpose, so
     * that the live nodes' answers come first.
     */
    private static final class CrashingRelay implements AutoCloseable {
        private final int target;
        private final ServerSocket server;
        private volatile boolean crashed;

        CrashingRelay(int target) throws IOException {
            this.target = target;
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            daemon(this::accept);
        }

        String uri() {
            return "redis://127.0.0.1:" + server.getLocalPort();
        }

        void crash() {
            crashed = true;
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                    daemon(() -> pump(client, upstream, true));
                    daemon(() -> pump(upstream, client, false));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void pump(Socket from, Socket to, boolean requests) {
            byte[] buf = new byte[8192];
            try (from;
                    to) {
                int n;
                while ((n = from.getInputStream().read(buf)) > 0) {
                    if (requests && crashed) {
                        Thread.sleep(30);
                        return; // closes both sides: the request gets no reply
                    }
                    to.getOutputStream().write(buf, 0, n);
                }
            } catch (IOException | InterruptedException e) {
                // one side closed: the try closes the other
            }
        }

        private static void daemon(Runnable r) {
            Thread t = new Thread(r, "crashing-relay");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void pausedNodesDoNotStallCallers() throws Exception {
        REDIS.node(0).pause();
        REDIS.node(2).pause();
        LockOptions twoSeconds = LockOptions.ttl(Duration.ofSeconds(2));
        long worst = 0;
        for (int i = 0; i < 10; i++) {
            long t0 = System.nanoTime();
            LockHandle h = (i % 2 == 0 ? locks : other).acquire(name, twoSeconds);
            long acquired = System.nanoTime();
            assertTrue(other.tryAcquire(name, twoSeconds).isEmpty() || i % 2 == 1, "busy while held");
            long t1 = System.nanoTime();
            h.release();
            long released = System.nanoTime();
            worst = Math.max(worst, Math.max(acquired - t0, released - t1));
            assertTrue(h.fencingToken() > lastFence, "fence " + h.fencingToken() + " after " + lastFence);
            lastFence = h.fencingToken();
        }
        long worstMs = TimeUnit.NANOSECONDS.toMillis(worst);
        System.out.println("paused nodes: slowest acquire/release " + worstMs + " ms (per-node timeout 100 ms)");
        assertTrue(worstMs < 1_000, "a paused node stalled a caller for " + worstMs + " ms");
    }

    @Test
    void nodesRestartedEmptyAfterTheMaxTtlCauseNoViolation() throws Exception {
        LockHandle a = locks.acquire(name, ONE_SECOND);
        lastFence = a.fencingToken();
        REDIS.node(0).kill();
        REDIS.node(1).kill();
        Thread.sleep(1_200); // the prescribed delay: at least the longest TTL in use
        REDIS.node(0).restart();
        REDIS.node(1).restart();
        // The two empty nodes would grant the lock, but 2 of 5 is no majority: A still holds it.
        assertTrue(other.tryAcquire(name, ONE_SECOND).isEmpty(), "B got a lock A still holds");
        assertTrue(a.isHeld(), "A lost a lock 3 of 5 nodes still hold: " + a);
        a.release();
        // Their fence counters restarted at 0, but every majority includes a node that kept its counter.
        for (int i = 0; i < 10; i++) {
            takeAndCheckFence(i % 2 == 0 ? other : locks);
        }
    }

    @Test
    void fenceStaysStrictlyIncreasingAcrossKillsPausesAndRestarts() throws Exception {
        takeAndCheckFence(locks);
        REDIS.node(3).kill();
        takeAndCheckFence(other);
        REDIS.node(1).pause();
        takeAndCheckFence(locks);
        REDIS.node(1).resume();
        takeAndCheckFence(other);
        Thread.sleep(1_100);
        REDIS.node(3).restart();
        takeAndCheckFence(locks);
        REDIS.node(0).kill();
        REDIS.node(4).kill();
        takeAndCheckFence(other);
        Thread.sleep(1_100);
        REDIS.node(0).restart();
        REDIS.node(4).restart();
        REDIS.node(2).kill();
        REDIS.node(3).kill();
        takeAndCheckFence(locks);
        takeAndCheckFence(other);
        assertTrue(locks.inspector().fenceOf(name) >= lastFence);
    }
}
