package dev.lockwarden.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import dev.lockwarden.examples.BuiltArtifacts;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./demo} as a user runs it (the launcher in its own JVM): it starts Redis, the dashboard,
 * the workers and the legacy app under the agent; payments are charged once; the legacy app's agent
 * locks are in Redis under its application name; a force-release reaches the stuck worker; on SIGTERM
 * (what Ctrl-C's SIGINT also triggers) no process, port or temp file is left.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LiveDemoTest {
    private static final Path ADMIN_TARGET =
            Path.of("..", "admin-ui", "target").toAbsolutePath().normalize();
    private static final Pattern REDIS = Pattern.compile("^Redis: redis://127\\.0\\.0\\.1:(\\d+) ", Pattern.MULTILINE);
    private static final Pattern LEGACY_APP = Pattern.compile("=== Legacy app: http://127\\.0\\.0\\.1:(\\d+)/pay");
    private static final Pattern LEGACY_ROUND =
            Pattern.compile("\\[legacy-client] POST /pay\\?id=(WEB-\\d+) x3 at once -> (.*)");
    private static final Pattern DASHBOARD =
            Pattern.compile("=== Dashboard: http://127\\.0\\.0\\.1:(\\d+)/ +login: operator / (\\S+)");

    @RegisterExtension
    static final RedisServerExtension configured = RedisServerExtension.nodes(1);

    @TempDir
    Path base;

    @Test
    void withTheDashboard() throws Exception {
        assumeTrue(
                Dashboard.isBuilt(ADMIN_TARGET),
                "admin-ui is not packaged in " + ADMIN_TARGET + " (mvn verify builds it before examples)");
        String out = runDemo(List.of("--port", "0", "--admin-ui", ADMIN_TARGET.toString()), true, null);
        Matcher m = DASHBOARD.matcher(out);
        assertTrue(m.find(), out);
        assertTrue(m.group(2).length() >= 20, "a generated password of 15 random bytes");
    }

    /** Also: {@code LOCKWARDEN_REDIS} makes it use that Redis, which it then leaves running. */
    @Test
    void withoutTheDashboardOnAConfiguredRedis() throws Exception {
        String out = runDemo(List.of("--no-dashboard"), false, configured.uri());
        assertFalse(out.contains("=== Dashboard"), out);
        assertTrue(out.contains("Redis: " + configured.uri() + " (configured)"), out);
        assertEquals("PONG", configured.node(0).command("PING"), "the demo must not stop a Redis it did not start");
    }

    @Test
    void killedWithoutCleanUpItsWorkersAndTheLegacyAppStillEnd() throws Exception {
        Path log = base.resolve("demo.log");
        Process demo = startDemo(List.of("--no-dashboard"), log, null);
        List<ProcessHandle> started = new ArrayList<>();
        try {
            await(log, demo, "[worker-4] stuck-job: holds", "[legacy-client] POST /pay?id=WEB-1 ");
            demo.descendants().forEach(started::add);
            List<ProcessHandle> jvms = started.stream()
                    .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                    .toList();
            assertEquals(LiveDemo.WORKERS.size() + 1, jvms.size(), "4 workers + the legacy app: " + jvms);

            demo.destroyForcibly(); // SIGKILL: no shutdown hook; the children only see their standard input close
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (ProcessHandle p : jvms) {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a worker JVM outlived the killed launcher by 30 s: "
                    + started.stream()
                            .filter(ProcessHandle::isAlive)
                            .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
                            .toList());
        } finally {
            demo.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly); // redis-server has no launcher to watch
        }
    }

    private static Process startDemo(List<String> args, Path log, String configuredRedis) throws IOException {
        Path tmp = Files.createDirectories(log.resolveSibling("tmp"));
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Djava.io.tmpdir=" + tmp,
                "-cp",
                System.getProperty("java.class.path"),
                LiveDemo.class.getName(),
                "--agent-jar",
                BuiltArtifacts.agentJar().toString(),
                "--legacy-app",
                BuiltArtifacts.legacyAppJar().toString(),
                "--agent-config",
                BuiltArtifacts.legacyAgentConfig().toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("LOCKWARDEN_REDIS");
        if (configuredRedis != null) {
            pb.environment().put("LOCKWARDEN_REDIS", configuredRedis);
        }
        return pb.start();
    }

    /** Runs the launcher until its workers are busy, checks them, stops it, checks nothing is left. */
    private String runDemo(List<String> args, boolean dashboard, String configuredRedis) throws Exception {
        Path log = base.resolve("demo.log");
        Path tmp = log.resolveSibling("tmp");
        Process demo = startDemo(args, log, configuredRedis);
        List<ProcessHandle> started = new ArrayList<>();
        try {
            String out = await(
                    log,
                    demo,
                    "[worker-4] stuck-job: holds 'import:partner-feed'",
                    "payments: charged TX-1000",
                    "stock: this worker sold 50 of SKU-42",
                    "cron: nightly-report period 1 ran here",
                    "checkout: ",
                    "[legacy-client] POST /pay?id=WEB-2 x3 at once -> ");
            demo.descendants().forEach(started::add);
            boolean ownRedis = configuredRedis == null;
            assertTrue(
                    started.size() >= 5 + (ownRedis ? 1 : 0) + (dashboard ? 1 : 0),
                    (ownRedis ? "redis-server, " : "") + "4 workers, the legacy app"
                            + (dashboard ? ", the dashboard" : "") + ": " + started);
            assertTrue(
                    out.contains("[legacy-app] ")
                            && out.contains("instrumented com.acme.legacy.web.PaymentService#charge"),
                    out);

            Matcher redis = REDIS.matcher(out);
            assertTrue(redis.find(), out);
            int redisPort = Integer.parseInt(redis.group(1));
            Matcher legacyApp = LEGACY_APP.matcher(out);
            assertTrue(legacyApp.find(), out);
            List<Integer> ports = new ArrayList<>(List.of(Integer.parseInt(legacyApp.group(1))));
            if (ownRedis) {
                ports.add(redisPort);
            }
            if (dashboard) {
                Matcher m = DASHBOARD.matcher(out);
                assertTrue(m.find(), out);
                int port = Integer.parseInt(m.group(1));
                ports.add(port);
                HttpResponse<String> page = HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                        .timeout(Duration.ofSeconds(20))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertTrue(page.statusCode() < 400, "the dashboard answers: " + page.statusCode());
            }

            // the operator's force-release (the dashboard's button calls the same LockInspector.forceRelease)
            try (LockManager operator = LockManager.builder()
                    .redis("redis://127.0.0.1:" + redisPort)
                    .application("test-operator")
                    .build()) {
                LockInfo web = awaitLegacyLock(operator, log);
                assertEquals(LegacyWorker.APPLICATION, web.holder().application(), web.toString());
                assertEquals(LockSource.AGENT, web.source(), web.toString());
                assertEquals("com.acme.legacy.web.PaymentService#charge", web.method(), web.toString());
                LockInfo stuck = operator.inspector().get(StuckRole.LOCK).orElseThrow();
                assertTrue(
                        stuck.remainingTtl().compareTo(Duration.ofSeconds(6)) <= 0
                                && !stuck.remainingTtl().isNegative(),
                        "the stuck lock's TTL is 6 s: " + stuck);
                long releasedAt = System.nanoTime();
                operator.inspector().forceRelease(StuckRole.LOCK, "test-operator");
                out = await(log, demo, "[worker-4] stuck-job: LOST 'import:partner-feed'");
                Duration noticed = Duration.ofNanos(System.nanoTime() - releasedAt);
                assertTrue(
                        noticed.compareTo(Duration.ofSeconds(4)) < 0,
                        "reported at its next refresh (every 2 s), not after " + noticed); // + ≤ 200 ms polling here
            }

            Map<String, Long> charged = out.lines()
                    .filter(l -> l.contains("payments: charged "))
                    .map(l -> l.replaceAll(".*payments: charged (TX-\\d+).*", "$1"))
                    .collect(Collectors.groupingBy(id -> id, Collectors.counting()));
            assertFalse(charged.isEmpty(), out);
            charged.forEach(
                    (id, n) -> assertEquals(1L, n, id + " charged once across both payment workers\n" + out_(log)));
            assertTrue(out.contains("was already charged: replayed receipt"), out);
            Matcher round = LEGACY_ROUND.matcher(out);
            int rounds = 0;
            while (round.find()) {
                rounds++;
                assertEquals(
                        List.of("charged", "already charged", "already charged"),
                        sortedAnswers(round.group(2)),
                        round.group(1) + " charged once under the agent: " + round.group());
            }
            assertTrue(rounds >= 2, out);

            demo.destroy(); // SIGTERM: the same shutdown hook as Ctrl-C
            assertTrue(demo.waitFor(60, TimeUnit.SECONDS), "the demo did not stop within 60 s\n" + out_(log));
            assertTrue(out_(log).contains("stopped; nothing left behind"), out_(log));
            for (ProcessHandle p : started) {
                assertTrue(
                        p.onExit().isDone() || !p.isAlive(),
                        "still running after the demo stopped: " + p.pid() + " " + p.info());
            }
            for (int port : ports) {
                assertThrows(ConnectException.class, () -> connect(port), "port " + port + " still open");
            }
            try (Stream<Path> left = Files.list(tmp)) {
                assertEquals(
                        List.of(), left.map(Path::toString).collect(Collectors.toList()), "temp files left behind");
            }
            return out_(log);
        } finally {
            demo.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The first agent lock of the legacy app seen in Redis (≤ 30 s): one payment:WEB-n of the rounds printed so far. */
    private static LockInfo awaitLegacyLock(LockManager operator, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher round = LEGACY_ROUND.matcher(out_(log));
            int last = 0;
            while (round.find()) {
                last = Integer.parseInt(round.group(1).substring("WEB-".length()));
            }
            for (int n = last; n <= last + 1; n++) { // the round in flight is the one after the last printed
                Optional<LockInfo> info = operator.inspector().get("payment:WEB-" + n);
                if (info.isPresent()) {
                    return info.get();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no payment:WEB-* lock seen in Redis within 30 s:\n" + out_(log));
    }

    /** "already charged, charged, already charged" → [charged, already charged, already charged]. */
    private static List<String> sortedAnswers(String answers) {
        return Stream.of(answers.split(", "))
                .sorted(Comparator.comparing(String::length))
                .toList();
    }

    private static void connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }

    /** Waits (≤ 150 s) until the output contains every one of {@code needles}. */
    private static String await(Path log, Process demo, String... needles) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        while (true) {
            String out = out_(log);
            if (Stream.of(needles).allMatch(out::contains)) {
                return out;
            }
            assertTrue(demo.isAlive(), "the demo ended early:\n" + out);
            assertTrue(System.nanoTime() < deadline, "missing one of " + List.of(needles) + " after 150 s:\n" + out);
            Thread.sleep(200);
        }
    }

    private static String out_(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
