package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.twoapps.Ledger;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two application instances — two independent Weld containers, each with its own default
 * {@link LockManager} — call the same {@code @Locked} method concurrently against one real
 * redis-server. Same key: strictly one at a time, no lost update; different keys: in parallel; the
 * control without the lock overlaps and loses updates.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TwoApplicationInstancesTest {
    private static final int THREADS_PER_INSTANCE = 4;
    private static final int CALLS_PER_THREAD = 8;
    private static final int TOTAL = 2 * THREADS_PER_INSTANCE * CALLS_PER_THREAD;

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private static WeldContainer first;
    private static WeldContainer second;

    @BeforeAll
    static void startTwoInstances() {
        System.setProperty("lockwarden.redis", redis.uri());
        first = instance("instance-1");
        second = instance("instance-2");
        System.clearProperty("lockwarden.redis");
        System.clearProperty("lockwarden.application");
    }

    private static WeldContainer instance(String name) {
        System.setProperty("lockwarden.application", name); // read when the container starts
        return new Weld(name)
                .disableDiscovery()
                .addBeanClasses(Ledger.class)
                .addExtension(new LockedExtension())
                .initialize();
    }

    @AfterAll
    static void stop() {
        first.shutdown();
        second.shutdown();
    }

    @BeforeEach
    void reset() {
        Ledger.reset();
    }

    @Test
    void theInstancesHaveTheirOwnLockManagers() {
        LockManager one = first.select(LockManager.class).get();
        LockManager two = second.select(LockManager.class).get();
        assertTrue(one != two);
        assertEquals("instance-1", one.application());
        assertEquals("instance-2", two.application());
    }

    @Test
    void sameKeyRunsStrictlyOneAtATimeAcrossInstances() throws Exception {
        run((ledger, thread) -> ledger.add("acct-1"));

        assertEquals(1, Ledger.MAX_SAME_KEY_OVERLAP.get(), "two bodies for one key overlapped");
        assertEquals(TOTAL, Ledger.BALANCES.get("acct-1"), "lost updates under the lock");
        assertTrue(
                Ledger.RUNS_BY_INSTANCE.get("instance-1").get() > 0
                        && Ledger.RUNS_BY_INSTANCE.get("instance-2").get() > 0,
                "both instances took part: " + Ledger.RUNS_BY_INSTANCE);
    }

    @Test
    void differentKeysRunInParallelAcrossInstances() throws Exception {
        run((ledger, thread) -> ledger.add("acct-" + thread));

        assertEquals(1, Ledger.MAX_SAME_KEY_OVERLAP.get());
        assertTrue(
                Ledger.MAX_ACTIVE_ANY.get() > 1,
                "distinct keys must not serialize: max parallel " + Ledger.MAX_ACTIVE_ANY);
        int sum = Ledger.BALANCES.values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(TOTAL, sum);
    }

    @Test
    void controlWithoutTheLockOverlapsAndLosesUpdates() throws Exception {
        run((ledger, thread) -> ledger.addUnlocked("acct-1"));

        assertTrue(Ledger.MAX_SAME_KEY_OVERLAP.get() > 1, "the control must overlap, or the other tests prove nothing");
        assertTrue(
                Ledger.BALANCES.get("acct-1") < TOTAL,
                "the control must lose updates: " + Ledger.BALANCES.get("acct-1"));
    }

    private interface Call {
        void on(Ledger ledger, String thread) throws Exception;
    }

    /** {@link #THREADS_PER_INSTANCE} threads per instance, released together, {@link #CALLS_PER_THREAD} calls each. */
    private static void run(Call call) throws Exception {
        List<Ledger> ledgers = List.of(
                first.select(Ledger.class).get(), second.select(Ledger.class).get());
        int threads = 2 * THREADS_PER_INSTANCE;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Ledger ledger = ledgers.get(t % 2);
                String name = "t" + t;
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        call.on(ledger, name);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
