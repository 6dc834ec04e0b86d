package dev.lockwarden.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./demo} script itself, as a newcomer types it in a terminal (runs after {@code package}, so the
 * jars the script starts are the ones the reactor just built). The script's own build step runs a
 * {@code mvn} first on the PATH that records its arguments and builds nothing (a real process, not
 * a mock of anything the demo talks to); everything after it is real. Ctrl-C is a SIGINT to the
 * foreground process group: the test starts the script in a process group of its own ({@code setsid})
 * and signals the whole group, as the terminal does. Every JVM of the run gets its own
 * {@code java.io.tmpdir} (through {@code JAVA_TOOL_OPTIONS}), so a file left behind is seen.
 */
class DemoScriptIT {
    private static final Path SCRIPT = Path.of("..", "demo").toAbsolutePath().normalize();
    private static final Pattern DASHBOARD = Pattern.compile("=== Dashboard: http://127\\.0\\.0\\.1:(\\d+)/ +login: operator / (\\S+)");
    private static final Pattern LISTEN = Pattern.compile("^\\S+\\s+\\d+\\s+\\d+\\s+(\\S+):(\\d+)\\s+.*?users:\\((.*)\\)$");
    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    @TempDir
    Path base;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void ctrlCStopsEverythingTheScriptStartedAndLeavesNothingBehind() throws Exception {
        Run run = start(List.of("--port", "0"));
        List<ProcessHandle> tree = new ArrayList<>();
        try {
            String out = run.await(150, "=== Ctrl-C to stop", "[worker-4] stuck-job: holds 'import:partner-feed'",
                    "payments: charged ", "[legacy-client] POST /pay?id=WEB-1 x3 at once -> ");
            assertEquals(List.of("-B -q -pl admin-ui,examples -am package -DskipTests"), run.mvnCalls(),
                    "./demo builds the dashboard and the examples (with what they need) before starting");

            Matcher login = DASHBOARD.matcher(out);
            assertTrue(login.find(), "the dashboard's URL and login are printed:\n" + out);
            int dashboardPort = Integer.parseInt(login.group(1));
            String password = login.group(2);
            assertTrue(password.length() >= 20, "a generated password, not a fixed one: " + password);
            HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + dashboardPort + "/")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(page.statusCode() < 400, "the dashboard answers on loopback: " + page.statusCode());

            tree.add(run.process.toHandle());
            run.process.descendants().forEach(tree::add);
            Set<Long> pids = tree.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
            // Redis, the dashboard, 4 workers, the legacy app: at least 7 processes below the script's JVM
            assertTrue(tree.size() >= 8, "the script's JVM and what it started: " + describe(tree));
            Map<String, Long> listening = listeningSockets(pids);
            assertTrue(listening.keySet().stream().anyMatch(a -> a.endsWith(":" + dashboardPort)), listening.toString());
            assertTrue(listening.size() >= 3, "Redis, the dashboard, the legacy app listen: " + listening);
            for (String address : listening.keySet()) {
                assertTrue(address.startsWith("127.0.0.1:") || address.startsWith("[::ffff:127.0.0.1]:"),
                        "listens on loopback only: " + address + " (pid " + listening.get(address) + ")");
            }

            run.ctrlC();
            assertTrue(run.process.waitFor(90, TimeUnit.SECONDS), "./demo did not end within 90 s of Ctrl-C:\n" + run.output());
            assertEquals(130, run.process.exitValue(), "the exit status of a JVM ended by SIGINT\n" + run.output());
            assertTrue(run.output().contains("stopped; nothing left behind"), run.output());
            assertNothingLeft(run, tree, listening.keySet());
        } finally {
            run.kill(tree);
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void tourRunsTheConsoleWalkThroughAndEnds() throws Exception {
        Run run = start(List.of("--tour"));
        List<ProcessHandle> tree = new ArrayList<>();
        try {
            tree.add(run.process.toHandle());
            assertTrue(run.process.waitFor(150, TimeUnit.SECONDS), "./demo --tour did not end:\n" + run.output());
            String out = run.output();
            assertEquals(0, run.process.exitValue(), out);
            assertEquals(List.of("-B -q -pl examples -am package -DskipTests"), run.mvnCalls());
            assertTrue(out.contains("customer charged 1 time(s)"), out);
            assertTrue(out.matches("(?s).*writes 0\\.00 with its old fence \\d+: rejected.*"), out);
            assertTrue(out.contains("balance is 70.00"), out);
            assertTrue(out.contains("was told: lost 'import:partner-feed'"), out);
            assertNothingLeft(run, tree, Set.of());
        } finally {
            run.kill(tree);
        }
    }

    private void assertNothingLeft(Run run, List<ProcessHandle> tree, Set<String> addresses) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // a child may take a moment to be reaped
        while (System.nanoTime() < deadline && (tree.stream().anyMatch(ProcessHandle::isAlive) || !inGroup(run.pgid()).isEmpty())) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), describe(tree.stream().filter(ProcessHandle::isAlive).toList()), "processes left running");
        assertEquals(List.of(), inGroup(run.pgid()), "processes left in the script's process group");
        for (String address : addresses) {
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            assertThrows(ConnectException.class, () -> connect(port), "port " + port + " still listening");
        }
        try (Stream<Path> left = Files.list(run.tmp)) {
            assertEquals(List.of(), left.map(Path::toString).toList(), "temp files left behind");
        }
    }

    private Run start(List<String> args) throws IOException {
        Path bin = Files.createDirectories(base.resolve("bin"));
        Path calls = base.resolve("mvn-calls.txt");
        Path mvn = bin.resolve("mvn");
        // the jars are built (this runs after package): the script's mvn only records what it was asked
        Files.writeString(mvn, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + calls + "'\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmp = Files.createDirectories(base.resolve("tmp"));
        List<String> cmd = new ArrayList<>(List.of("setsid", "bash", SCRIPT.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(base.resolve("demo.log").toFile());
        Map<String, String> env = pb.environment();
        env.remove("LOCKWARDEN_REDIS");
        env.remove("MAVEN_OPTS");
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp);
        return new Run(pb.start(), base.resolve("demo.log"), calls, tmp);
    }

    /** One run of the script: its process (the session and group leader), output and the recorded mvn calls. */
    private record Run(Process process, Path log, Path calls, Path tmp) {
        long pgid() {
            return process.pid(); // setsid: the script (then the JVM it execs) leads its own group
        }

        String output() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(no output: " + e + ")";
            }
        }

        List<String> mvnCalls() throws IOException {
            return Files.exists(calls) ? Files.readAllLines(calls, StandardCharsets.UTF_8) : List.of();
        }

        String await(long seconds, String... needles) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                String out = output();
                if (Stream.of(needles).allMatch(out::contains)) {
                    return out;
                }
                assertTrue(process.isAlive(), "./demo ended early:\n" + out);
                assertTrue(System.nanoTime() < deadline, "missing one of " + List.of(needles) + " after " + seconds + " s:\n" + out);
                Thread.sleep(200);
            }
        }

        /** What a terminal's Ctrl-C does: SIGINT to every process of the foreground group. */
        void ctrlC() throws Exception {
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + pgid()).redirectErrorStream(true).start();
            assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, kill.exitValue(), new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }

        void kill(List<ProcessHandle> tree) {
            process.destroyForcibly();
            tree.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Pids (with their command) whose process group is {@code pgid}, from {@code ps}. */
    private static List<String> inGroup(long pgid) throws Exception {
        Process ps = new ProcessBuilder("ps", "-e", "-o", "pid=,pgid=,args=").redirectErrorStream(true).start();
        String out = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ps.waitFor(10, TimeUnit.SECONDS));
        List<String> found = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+", 3);
            if (f.length >= 2 && f[1].equals(Long.toString(pgid))) {
                found.add(line.trim());
            }
        }
        return found;
    }

    /** Listening TCP sockets ({@code ss -ltnp}) owned by {@code pids}: local address → pid. */
    private static Map<String, Long> listeningSockets(Set<Long> pids) throws Exception {
        Process ss = new ProcessBuilder("ss", "-H", "-l", "-t", "-n", "-p").redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ss.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, ss.exitValue(), out);
        Map<String, Long> found = new TreeMap<>();
        for (String line : out.split("\n")) {
            Matcher m = LISTEN.matcher(line.trim());
            if (!m.find()) {
                continue;
            }
            Matcher pid = PID.matcher(m.group(3));
            while (pid.find()) {
                long p = Long.parseLong(pid.group(1));
                if (pids.contains(p)) {
                    found.put(m.group(1) + ":" + m.group(2), p);
                }
            }
        }
        return found;
    }

    private static List<String> describe(List<ProcessHandle> processes) {
        Set<String> s = new TreeSet<>();
        for (ProcessHandle p : processes) {
            s.add(p.pid() + " " + p.info().commandLine().map(c -> c.length() > 120 ? c.substring(0, 120) + "…" : c).orElse("?"));
        }
        return new ArrayList<>(s);
    }

    private static void connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }
}
