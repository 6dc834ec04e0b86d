package dev.lockwarden.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the agent benchmark with tiny counts against the real agent jar and a real redis-server:
 * both parts complete and print numbers. No timing assertions (the machine is shared).
 */
class AgentBenchmarkSmokeTest {
    private static final Path AGENT = Path.of("../lock-agent/target/lock-agent.jar");

    @Test
    void bothPartsCompleteAndProduceNumbers() throws Exception {
        assumeTrue(Files.isRegularFile(AGENT), "lock-agent.jar not built (mvn -pl lock-agent,benchmarks -am package)");
        var cfg = new AgentBenchmarkMain.Config(AGENT, 200, 1, 50, 1, "redis-server");

        String md = AgentBenchmarkMain.run(cfg);

        for (String path : new String[] {"`LockManager.acquire` / `close` around the no-op", "agent-wrapped no-op"}) {
            Matcher m = Pattern.compile(
                            "\\| distinct keys \\| " + Pattern.quote(path) + " \\| (\\d+) \\| ([\\d.]+) \\|")
                    .matcher(md);
            assertTrue(m.find(), path + " row missing in\n" + md);
            assertEquals("200", m.group(1), md);
        }
        assertTrue(
                Pattern.compile("\\| one key, sequential \\| 200 \\| [+-][\\d.]+ \\[[+-][\\d.]+, [+-][\\d.]+\\] \\|")
                        .matcher(md)
                        .find(),
                "paired row with its interval missing in\n" + md);
        assertTrue(
                md.contains("| keys | pairs | added mean µs (95 % CI) | 1 %-trimmed mean µs (95 % CI) "
                        + "| median of differences µs |\n"),
                "the paired table reports the differences and their intervals only:\n" + md);
        Matcher start = Pattern.compile(
                        "\\| same with `-javaagent:lock-agent.jar=config=…` \\(1 rule\\) \\| ([\\d,]+) \\|")
                .matcher(md);
        assertTrue(start.find(), "start-up row missing in\n" + md);
        for (String app : new String[] {"silent app", "app that logs"}) {
            assertTrue(
                    Pattern.compile("\\*\\*added by the agent, " + app + "\\*\\* \\| [+-][\\d.]+ \\|")
                            .matcher(md)
                            .find(),
                    app + " row missing in\n" + md);
            assertTrue(
                    Pattern.compile("\\*\\*added by the agent, " + app + "\\*\\* \\|[^\\n]*\\| min [+-]")
                            .matcher(md)
                            .find(),
                    app + " row's notes do not start with the minimum in\n" + md);
        }
        assertTrue(md.contains("| the app that logs, with `-javaagent:lock-agent.jar=config=…` |"), md);
    }

    @Test
    void parsesTheChildsResultLines() {
        var m = AgentBenchmarkMain.parse("noise\nRESULT mode=same path=agent n=12 mean=101.50 p50=99.00 p99=180.25\n");
        assertEquals(new AgentBenchmarkMain.CallStats(12, 101.5, 99.0, 180.25), m.get("same/agent"));
        assertEquals(2.5, AgentBenchmarkMain.median(new long[] {4, 1, 3, 2}));
        var p = AgentBenchmarkMain.parsePaired(
                        "PAIRED mode=distinct n=9 mean=-0.500 lo=-1.250 hi=0.250 tmean=0.100 tlo=-0.200"
                                + " thi=0.400 median=0.050\n")
                .get("distinct");
        assertEquals(new AgentBenchmarkMain.Paired(9, -0.5, -1.25, 0.25, 0.1, -0.2, 0.4, 0.05), p);
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
