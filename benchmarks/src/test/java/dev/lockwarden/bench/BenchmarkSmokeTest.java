package dev.lockwarden.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Runs scenario 1 for every contender for about half a second: the harness works end to end. */
class BenchmarkSmokeTest {

    @Test
    void scenarioOneProducesATableForEveryContender() throws Exception {
        assumeTrue(onPath("redis-server") && onPath("redis-benchmark"), "redis-server / redis-benchmark not installed");
        BenchConfig cfg = new BenchConfig(true, Duration.ofMillis(100), Duration.ofMillis(100), 1, 4, 4, 100,
                Duration.ofMillis(1500), Duration.ofMillis(500), 100, 100_000, Duration.ofSeconds(60),
                Path.of("target/smoke.md"), "redis-server", "redis-benchmark", "1");

        String md = BenchmarkMain.run(cfg);

        assertTrue(md.contains("### Scenario 1"), md);
        for (String c : new String[] {"Lockwarden (single node)", "Redisson RLock", "ShedLock", "plain snippet", "Redis limit"}) {
            assertTrue(md.contains("| " + c), c + " missing in\n" + md);
        }
        assertFalse(md.contains("set-up failed"), md);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
