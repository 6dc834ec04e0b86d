package dev.lockwarden.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisBinary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark end to end, as {@code benchmarks/run --quick} runs it but in ~10 s: a child JVM runs
 * {@link BenchmarkMain#main} (scenarios 1 and 3, a few hundred ms per contender) against Redis from
 * lock-test-support — {@code redis-server} on the PATH, else the embedded fallback
 * ({@code -Dlockwarden.redis.server=embedded} forces it) — and must write the report with every
 * contender measured, no overlap under the one-key scenario, and the Redis limit rows exactly when
 * {@code redis-benchmark} is installed.
 */
class BenchmarkSmokeTest {
    private static final String[] CONTENDERS = {
        "Lockwarden (single node)",
        "Lockwarden Redlock (5 nodes)",
        "Redisson RLock",
        "FencingLock",
        "ShedLock",
        "plain snippet"
    };

    @Test
    void aQuickRunWritesTheReportWithEveryContenderMeasuredAndNoOverlap(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("benchmarks.md");
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dbench.quick=true",
                "-Dbench.only=1,3",
                "-Dbench.warmup=100ms",
                "-Dbench.measure=200ms",
                "-Dbench.rounds=1",
                "-Dbench.threads=4",
                "-Dbench.contended-threads=4",
                "-Dbench.budget=60s",
                "-Dbench.out=" + out));
        String forced = System.getProperty(RedisBinary.SERVER_PROPERTY);
        if (forced != null) {
            cmd.add("-D" + RedisBinary.SERVER_PROPERTY + "=" + forced);
        }
        cmd.add(BenchmarkMain.class.getName());
        Path log = dir.resolve("bench.log");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(90, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "the quick run did not end within 90 s:\n" + output);
        assertEquals(0, p.exitValue(), output);
        System.out.printf("smoke run: %.1f s%n", (System.nanoTime() - t0) / 1e9);

        assertTrue(Files.isRegularFile(out), "no report written to " + out + "\n" + output);
        String md = DocWriter.between(Files.readString(out, StandardCharsets.UTF_8), DocWriter.LATEST);
        assertFalse(md.contains("set-up failed") || md.contains("skipped (time budget)"), md);

        RedisBinary redis = RedisBinary.detect(); // what the child picked, by the same rules
        // the embedded binary is extracted to a new temp file per JVM: compare its version, not its path
        String named = redis.isEmbedded()
                ? " " + redis.version() + ", the embedded-redis fallback`"
                : "Redis from `" + redis.path() + " " + redis.version() + "`";
        assertTrue(md.contains(named), "header does not name " + named + ":\n" + md);

        List<List<String>> s1 = rows(md, "### Scenario 1");
        for (String c : CONTENDERS) {
            assertTrue(number(row(s1, c, md).get(1)) > 0, c + ": no cycles/s in scenario 1\n" + md);
        }
        List<List<String>> s3 = rows(md, "### Scenario 3");
        for (String c : CONTENDERS) {
            List<String> r = row(s3, c, md);
            assertTrue(number(r.get(1)) > 0, c + ": no acquisitions in scenario 3\n" + md);
            assertEquals("0", r.get(3), c + ": overlapping holders of one key\n" + md);
        }

        boolean limitTool = RedisLimit.locate("redis-benchmark").isPresent();
        assertEquals(limitTool, md.contains("### The Redis limit"), md);
        assertEquals(limitTool, s1.stream().anyMatch(r -> r.get(0).startsWith("Redis limit")), md);
        assertEquals(!limitTool, md.contains(RedisLimit.MISSING), md);
    }

    @Test
    void withoutRedisBenchmarkTheLimitRowsAreLeftOutWithTheInstallCommand(@TempDir Path dir) throws Exception {
        BenchConfig cfg = new BenchConfig(
                true,
                Duration.ofMillis(100),
                Duration.ofMillis(100),
                1,
                4,
                4,
                100,
                Duration.ofMillis(1500),
                Duration.ofMillis(500),
                100,
                100_000,
                Duration.ofSeconds(60),
                dir.resolve("smoke.md"),
                "",
                dir.resolve("no-such-redis-benchmark").toString(),
                "1");
        Bench b = new Bench(cfg, 1, List.of()); // port 1: nothing may connect when the tool is missing

        BenchmarkMain.limits(b);

        assertNull(b.limit1);
        assertNull(b.limit16);
        assertTrue(b.report().contains("sudo apt-get install -y redis-tools"), b.report());
        assertFalse(b.report().contains("### The Redis limit"), b.report());
    }

    /** The rows of the first table after {@code heading}, as trimmed cells. */
    private static List<List<String>> rows(String md, String heading) {
        int at = md.indexOf(heading);
        assertTrue(at >= 0, heading + " missing in\n" + md);
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : md.substring(at).split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                if (!line.startsWith("|---")) {
                    List<String> cells = new ArrayList<>();
                    for (String c : line.substring(1, line.length() - 1).split("\\|", -1)) {
                        cells.add(c.trim());
                    }
                    rows.add(cells);
                }
            } else if (inTable) {
                break;
            }
        }
        return rows.subList(1, rows.size()); // without the header
    }

    private static List<String> row(List<List<String>> rows, String contender, String md) {
        return rows.stream()
                .filter(r -> r.get(0).startsWith(contender))
                .findFirst()
                .orElseThrow(() -> new AssertionError(contender + " missing in\n" + md));
    }

    private static double number(String cell) {
        return Double.parseDouble(cell.replace(",", ""));
    }
}
