package dev.lockwarden.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual exclusion across processes on a 3-master Redis Cluster: 2 JVMs × 8 threads of non-atomic
 * read-modify-writes under one lock. The data lives on a separate standalone node.
 */
class ClusterStressTest {
    @RegisterExtension
    static final RedisServerExtension CLUSTER = RedisServerExtension.cluster(3);

    @RegisterExtension
    static final RedisServerExtension DATA = RedisServerExtension.nodes(1);

    private static final int JVMS = 2;
    private static final int THREADS = 8;
    private static final int ITERATIONS = 500;

    @Test
    void exactCountNoOverlapIncreasingFences() throws Exception {
        CLUSTER.flushAll();
        MultiJvmStress.StressResult r = MultiJvmStress.start(
                        Map.of("lockwarden.cluster", String.join(",", CLUSTER.uris())),
                        DATA.uri(),
                        "stress:cluster",
                        JVMS,
                        THREADS,
                        ITERATIONS,
                        true,
                        Duration.ofMinutes(4))
                .await();
        long expected = (long) JVMS * THREADS * ITERATIONS;
        assertEquals(0, r.errors(), r.logs());
        assertEquals(expected, r.sections(), r.logs());
        assertEquals(expected, r.counter(), "lost updates under the lock");
        assertEquals(1, r.maxOverlap(), "two holders were inside at once");
        assertEquals(0, r.fenceViolations(), "fencing tokens did not increase in section order");
    }
}
