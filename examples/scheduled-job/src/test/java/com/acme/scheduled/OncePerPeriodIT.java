package com.acme.scheduled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs run the same Spring {@code @Scheduled} job, both firing every two seconds: under the agent each period
 * runs exactly once across both; without it (the control) both run it every period.
 */
@Timeout(120)
class OncePerPeriodIT {
    private static final int SECONDS = 20;
    /** Generous: the JVM, the agent, Spring and the first Redis connection take two to four seconds here. */
    private static final int STARTUP_SECONDS = 8;

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @TempDir
    Path dir;

    @Test
    void underTheAgentEachPeriodRunsOnceAcrossBothJvms() throws Exception {
        Path config = Files.writeString(
                dir.resolve("agent.conf"),
                String.join(
                        "\n",
                        "redis = " + redis.uri(),
                        "application = reports",
                        "com.acme.scheduled.ReportJob#run key=\"report\" ttl=30s onBusy=SKIP holdAtLeast=1500ms",
                        ""));
        Map<Long, Integer> runs = runTwo(List.of("-javaagent:" + agentJar() + "=config=" + config));
        assertTrue(runs.size() >= 4, "the job ran in several periods: " + runs);
        for (Map.Entry<Long, Integer> e : runs.entrySet()) {
            assertEquals(1, e.getValue(), "period " + e.getKey() + " ran once: " + runs);
        }
    }

    @Test
    void withoutTheAgentBothJvmsRunEveryPeriod() throws Exception {
        Map<Long, Integer> runs = runTwo(List.of());
        assertTrue(runs.size() >= 4, runs.toString());
        for (Map.Entry<Long, Integer> e : runs.entrySet()) {
            assertEquals(2, e.getValue(), "control: both JVMs ran period " + e.getKey() + ": " + runs);
        }
    }

    /** Runs per period, over the periods both JVMs were up for. */
    private Map<Long, Integer> runTwo(List<String> agent) throws Exception {
        Path log = dir.resolve("runs-" + agent.size() + ".log");
        List<Process> jvms = new ArrayList<>();
        long started = Instant.now().getEpochSecond();
        for (int i = 0; i < 2; i++) {
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1",
                    "-Dreport.log=" + log));
            cmd.addAll(agent);
            cmd.addAll(List.of(
                    "-cp",
                    System.getProperty("example.classpath"),
                    "com.acme.scheduled.ReportApp",
                    String.valueOf(SECONDS)));
            jvms.add(new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("jvm-" + agent.size() + "-" + i + ".out")
                            .toFile())
                    .start());
        }
        for (Process p : jvms) {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the application did not end");
            }
        }
        for (int i = 0; i < 2; i++) {
            String out = Files.readString(dir.resolve("jvm-" + agent.size() + "-" + i + ".out"));
            assertTrue(out.contains("STARTED"), out);
            assertTrue(
                    agent.isEmpty()
                            || out.contains("lockwarden-agent: instrumented com.acme.scheduled.ReportJob#run()"),
                    out);
        }
        return perPeriod(log, started);
    }

    /**
     * Runs per period (zero included) over the periods both JVMs were surely up for: from a few seconds after they
     * were started (start-up) to a period before they stop.
     */
    private static Map<Long, Integer> perPeriod(Path log, long startedEpochSecond) throws IOException {
        Map<Long, Integer> inside = new TreeMap<>();
        long from = (startedEpochSecond + STARTUP_SECONDS) / 2 + 1;
        long to = (startedEpochSecond + SECONDS) / 2 - 1;
        for (long p = from; p <= to; p++) {
            inside.put(p, 0);
        }
        for (String line : Files.readAllLines(log)) {
            long period = Long.parseLong(line.split(" ")[1].substring("period=".length()));
            inside.computeIfPresent(period, (k, n) -> n + 1);
        }
        return inside;
    }

    private static Path agentJar() {
        Path jar = Path.of(System.getProperty("lockwarden.agent.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " is built by the lock-agent module first");
        return jar;
    }
}
