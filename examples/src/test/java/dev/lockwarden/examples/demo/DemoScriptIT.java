package dev.lockwarden.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * {@code java.io.tmpdir} (through {@code JAVA_TOOL_OPTIONS}), so a file left behind is seen. Processes,
 * process groups and listening sockets are read from /proc (Linux).
 */
class DemoScriptIT {
    private static final Path SCRIPT = Path.of("..", "demo").toAbsolutePath().normalize();
    private static final Pattern DASHBOARD =
            Pattern.compile("=== Dashboard: http://127\\.0\\.0\\.1:(\\d+)/ +login: operator / (\\S+)");

    @TempDir
    Path base;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void ctrlCStopsEverythingTheScriptStartedAndLeavesNothingBehind() throws Exception {
        Path adminTarget = SCRIPT.resolveSibling("admin-ui").resolve("target");
        // as LiveDemoTest: the whole reactor builds admin-ui before examples; -pl examples -am does not
        assumeTrue(
                Dashboard.isBuilt(adminTarget),
                "admin-ui is not packaged in " + adminTarget + " (mvn verify builds it before examples)");
        Run run = start(List.of("--port", "0"));
        List<ProcessHandle> tree = new ArrayList<>();
        try {
            String out = run.await(
                    150,
                    "=== Ctrl-C to stop",
                    "[worker-4] stuck-job: holds 'import:partner-feed'",
                    "payments: charged ",
                    "[legacy-client] POST /pay?id=WEB-1 x3 at once -> ");
            assertEquals(
                    List.of("-B -q -pl admin-ui,examples -am package -DskipTests"),
                    run.mvnCalls(),
                    "./demo builds the dashboard and the examples (with what they need) before starting");

            Matcher login = DASHBOARD.matcher(out);
            assertTrue(login.find(), "the dashboard's URL and login are printed:\n" + out);
            int dashboardPort = Integer.parseInt(login.group(1));
            String password = login.group(2);
            assertTrue(password.length() >= 20, "a generated password, not a fixed one: " + password);
            HttpResponse<String> page = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboardPort + "/"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertTrue(page.statusCode() < 400, "the dashboard answers on loopback: " + page.statusCode());

            tree.add(run.process.toHandle());
            run.process.descendants().forEach(tree::add);
            Set<Long> pids = tree.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
            // Redis, the dashboard, 4 workers, the legacy app: at least 7 processes below the script's JVM
            assertTrue(tree.size() >= 8, "the script's JVM and what it started: " + describe(tree));
            Map<String, Long> listening = listeningSockets(pids);
            assertTrue(
                    listening.keySet().stream().anyMatch(a -> a.endsWith(":" + dashboardPort)), listening.toString());
            assertTrue(listening.size() >= 3, "Redis, the dashboard, the legacy app listen: " + listening);
            for (String address : listening.keySet()) {
                assertTrue(
                        address.startsWith("127.0.0.1:")
                                || address.startsWith("[::ffff:127.0.0.1]:")
                                || address.startsWith("[::1]:"),
                        "listens on loopback only: " + address + " (pid " + listening.get(address) + ")");
            }

            run.ctrlC();
            assertTrue(
                    run.process.waitFor(90, TimeUnit.SECONDS),
                    "./demo did not end within 90 s of Ctrl-C:\n" + run.output());
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
        while (System.nanoTime() < deadline
                && (tree.stream().anyMatch(ProcessHandle::isAlive)
                        || !inGroup(run.pgid()).isEmpty())) {
            Thread.sleep(100);
        }
        assertEquals(
                List.of(), describe(tree.stream().filter(ProcessHandle::isAlive).toList()), "processes left running");
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
        // a terminal starts the script with SIGINT and SIGQUIT at their defaults; a build started in the
        // background (nohup, "&" in a script) passes them on ignored, and a JVM keeps an ignored SIGINT
        // ignored, so Ctrl-C would end Redis but no JVM: reset them first (perl is part of every Debian)
        List<String> cmd = new ArrayList<>(List.of(
                "perl",
                "-e",
                "$SIG{INT} = $SIG{QUIT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"",
                "setsid",
                "bash",
                SCRIPT.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(base.resolve("demo.log").toFile());
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
            return process.pid(); // perl execs setsid: the script (then the JVM it execs) leads its own group
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
                assertTrue(
                        System.nanoTime() < deadline,
                        "missing one of " + List.of(needles) + " after " + seconds + " s:\n" + out);
                Thread.sleep(200);
            }
        }

        /** What a terminal's Ctrl-C does: SIGINT to every process of the foreground group. */
        void ctrlC() throws Exception {
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + pgid())
                    .redirectErrorStream(true)
                    .start();
            assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, kill.exitValue(), new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }

        void kill(List<ProcessHandle> tree) {
            process.destroyForcibly();
            tree.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Processes (pid and command) whose process group is {@code pgid}: field 5 of /proc/PID/stat. */
    private static List<String> inGroup(long pgid) {
        List<String> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
                String[] f =
                        stat.substring(stat.lastIndexOf(')') + 2).split(" "); // after "pid (comm) ": state ppid pgrp
                if (f[2].equals(Long.toString(pgid))) {
                    found.add(p.pid() + " " + p.info().commandLine().orElse("?"));
                }
            } catch (IOException | RuntimeException gone) {
                // ended meanwhile
            }
        });
        return found;
    }

    /**
     * Listening TCP sockets owned by {@code pids}: local address → pid. Read from /proc (net/tcp, net/tcp6
     * and each process's fd links), so no ss/netstat is needed on the machine.
     */
    private static Map<String, Long> listeningSockets(Set<Long> pids) throws IOException {
        Map<String, String> listeningByInode = new TreeMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path t = Path.of(table);
            if (!Files.exists(t)) {
                continue;
            }
            List<String> lines = Files.readAllLines(t);
            for (String line : lines.subList(1, lines.size())) { // without the header line
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A")) { // 0A = LISTEN
                    listeningByInode.put(f[9], address(f[1]));
                }
            }
        }
        Map<String, Long> found = new TreeMap<>();
        for (long pid : pids) {
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : (Iterable<Path>) fds::iterator) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString(); // socket:[INODE]
                        if (target.startsWith("socket:[")) {
                            String address = listeningByInode.get(target.substring(8, target.length() - 1));
                            if (address != null) {
                                found.put(address, pid);
                            }
                        }
                    } catch (IOException closed) {
                        // fd closed meanwhile
                    }
                }
            } catch (IOException gone) {
                // process ended meanwhile
            }
        }
        return found;
    }

    /** /proc/net/tcp's HEXADDR:HEXPORT as 127.0.0.1:PORT, [::1]:PORT, [::ffff:127.0.0.1]:PORT or [HEX]:PORT. */
    private static String address(String hex) {
        String[] ap = hex.split(":");
        int port = Integer.parseInt(ap[1], 16);
        String a = ap[0];
        if (a.length() == 8) { // IPv4, little-endian
            return Integer.parseInt(a.substring(6, 8), 16) + "." + Integer.parseInt(a.substring(4, 6), 16) + "."
                    + Integer.parseInt(a.substring(2, 4), 16) + "." + Integer.parseInt(a.substring(0, 2), 16) + ":"
                    + port;
        }
        return switch (a) {
            case "00000000000000000000000001000000" -> "[::1]:" + port;
            case "0000000000000000FFFF00000100007F" -> "[::ffff:127.0.0.1]:" + port;
            default -> "[" + a + "]:" + port;
        };
    }

    private static List<String> describe(List<ProcessHandle> processes) {
        Set<String> s = new TreeSet<>();
        for (ProcessHandle p : processes) {
            s.add(p.pid() + " "
                    + p.info()
                            .commandLine()
                            .map(c -> c.length() > 120 ? c.substring(0, 120) + "…" : c)
                            .orElse("?"));
        }
        return new ArrayList<>(s);
    }

    private static void connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }
}
