package dev.lockwarden.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual exclusion across processes: 2 JVMs × 8 threads × 1,250 non-atomic read-modify-writes of
 * one counter under one lock. Node 0 holds the lock, node 1 the data.
 */
class SingleNodeMultiJvmStressTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(2);

    private static final int JVMS = 2;
    private static final int THREADS = 8;

    @Test
    void lockGivesExactCountAndNoOverlapAcrossJvms() throws Exception {
        int iterations = 1_250;
        MultiJvmStress.StressResult r = MultiJvmStress.start(
                        Map.of("lockwarden.redis", REDIS.node(0).uri()),
                        REDIS.node(1).uri(),
                        "stress:counter-lock",
                        JVMS,
                        THREADS,
                        iterations,
                        true,
                        Duration.ofMinutes(4))
                .await();
        long expected = (long) JVMS * THREADS * iterations;
        assertEquals(0, r.errors(), r.logs());
        assertEquals(expected, r.sections(), r.logs());
        assertEquals(expected, r.counter(), "lost updates under the lock");
        assertEquals(1, r.maxOverlap(), "two holders were inside at once");
        assertEquals(0, r.fenceViolations(), "fencing tokens did not increase in section order");
    }

    @Test
    void withoutTheLockTheSameWorkloadLosesUpdates() throws Exception {
        int iterations = 300;
        MultiJvmStress.StressResult r = MultiJvmStress.start(
                        Map.of("lockwarden.redis", REDIS.node(0).uri()),
                        REDIS.node(1).uri(),
                        "unused",
                        JVMS,
                        THREADS,
                        iterations,
                        false,
                        Duration.ofMinutes(2))
                .await();
        assertEquals((long) JVMS * THREADS * iterations, r.sections(), r.logs());
        assertTrue(r.lostUpdates() > 0, "the unlocked workload must lose updates, else the locked test proves nothing");
        assertTrue(r.maxOverlap() > 1, "the unlocked workload must overlap");
    }
}
