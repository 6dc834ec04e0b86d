package dev.lockwarden.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * Mutual exclusion across processes on a 5-node Redlock: 2 JVMs × 8 threads of non-atomic
 * read-modify-writes under one lock, with 2 of the 5 nodes killed in the middle of the run.
 * Nodes 0–4 hold the lock, node 5 the data.
 */
class RedlockStressTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(6);

    private static final int JVMS = 2;
    private static final int THREADS = 8;
    private static final int ITERATIONS = 150; // 2,400 sections: a Redlock handoff costs ~4 parallel round trips

    @Test
    void exactCountNoOverlapIncreasingFencesWithTwoOfFiveNodesKilledMidRun() throws Exception {
        REDIS.flushAll();
        String redlock = REDIS.nodes().subList(0, 5).stream().map(n -> n.uri()).collect(Collectors.joining(","));
        String data = REDIS.node(5).uri();
        MultiJvmStress run = MultiJvmStress.start(
                Map.of("lockwarden.redlock", redlock),
                data,
                "stress:redlock",
                JVMS,
                THREADS,
                ITERATIONS,
                true,
                Duration.ofMinutes(4));
        long expected = (long) JVMS * THREADS * ITERATIONS;
        try {
            awaitCounter(data, expected / 3);
            REDIS.node(1).kill();
            REDIS.node(3).kill();
        } catch (Throwable t) {
            run.destroy();
            throw t;
        }
        MultiJvmStress.StressResult r = run.await();
        assertEquals(0, r.errors(), r.logs());
        assertEquals(expected, r.sections(), r.logs());
        assertEquals(expected, r.counter(), "lost updates under the lock");
        assertEquals(1, r.maxOverlap(), "two holders were inside at once");
        assertEquals(0, r.fenceViolations(), "fencing tokens did not increase in section order");
    }

    /** Waits (bounded) until the workers are well into the run, so the kill lands mid-run. */
    static void awaitCounter(String dataUri, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        try (RedisClient data = RedisClient.create(java.net.URI.create(dataUri))) {
            while (System.nanoTime() < deadline) {
                String v = data.get(StressWorker.COUNTER);
                if (v != null && Long.parseLong(v) >= atLeast) {
                    return;
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("the stress workers did not reach " + atLeast + " sections within 2 minutes");
    }
}
