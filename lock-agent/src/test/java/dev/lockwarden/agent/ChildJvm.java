package dev.lockwarden.agent;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The legacy test app ({@code com.acme.legacy.LegacyApp}) in its own JVM, optionally with the shaded
 * agent. Its class path holds only the test classes and its own unshaded Jedis, never lock-core or
 * the agent's classes. Output is collected line by line; every wait is bounded.
 */
final class ChildJvm implements AutoCloseable {
    private static final Pattern APP_JARS = Pattern.compile(
            "(byte-buddy|jedis|commons-pool2|gson|json|slf4j-api|redis-authx-core|error_prone_annotations)-[0-9].*\\.jar");

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();

    private ChildJvm(Process process) {
        this.process = process;
        pump(process.getInputStream(), out, "out");
        pump(process.getErrorStream(), err, "err");
    }

    /** Wraps a process started by the test itself. */
    static ChildJvm of(Process process) {
        return new ChildJvm(process);
    }

    /** The shaded agent jar built by {@code package}. */
    static Path agentJar() {
        Path jar = Path.of(System.getProperty("lockwarden.agent.jar", "target/lock-agent.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run the tests with mvn verify (after package)");
        }
        return jar;
    }

    /** {@code -javaagent:<shaded jar>=config=<file>}. */
    static String javaagent(Path config) {
        return "-javaagent:" + agentJar().toAbsolutePath() + "=config=" + config.toAbsolutePath();
    }

    static ChildJvm start(List<String> jvmArgs, String... appArgs) throws IOException {
        return start(jvmArgs, java.util.Map.of(), appArgs);
    }

    /** Starts the legacy app with extra environment variables. */
    static ChildJvm start(List<String> jvmArgs, java.util.Map<String, String> env, String... appArgs)
            throws IOException {
        return startMain("com.acme.legacy.LegacyApp", jvmArgs, env, appArgs);
    }

    /** Starts another main class of the test classes. */
    static ChildJvm startMain(
            String mainClass, List<String> jvmArgs, java.util.Map<String, String> env, String... appArgs)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", appClassPath(), mainClass));
        cmd.addAll(Arrays.asList(appArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        return new ChildJvm(pb.start());
    }

    /** {@code java -jar lock-agent.jar args...}: the agent's command line. */
    static ChildJvm cli(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                agentJar().toAbsolutePath().toString()));
        cmd.addAll(Arrays.asList(args));
        return new ChildJvm(new ProcessBuilder(cmd).start());
    }

    /** The compiled test classes: the legacy application's class directory. */
    static Path testClasses() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith("test-classes"))
                .map(Path::of)
                .findFirst()
                .orElseThrow();
    }

    private static String appClassPath() {
        String cp = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith("test-classes")
                        || APP_JARS.matcher(Path.of(e).getFileName().toString()).matches())
                .collect(Collectors.joining(File.pathSeparator));
        if (!cp.contains("jedis-")) {
            throw new IllegalStateException(
                    "no Jedis jar on the test class path: " + System.getProperty("java.class.path"));
        }
        return cp;
    }

    private static void pump(InputStream in, List<String> sink, String name) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            synchronized (sink) {
                                sink.add(line);
                                sink.notifyAll();
                            }
                        }
                    } catch (IOException ignored) {
                        // process ended
                    }
                },
                "child-" + name);
        t.setDaemon(true);
        t.start();
    }

    long pid() {
        return process.pid();
    }

    /** The first stdout line starting with {@code prefix}, waiting up to {@code timeout}. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                for (String l : out) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no line starting with '" + prefix + "' within " + timeout + "\n" + this);
                }
                TimeUnit.NANOSECONDS.timedWait(out, left);
            }
        }
    }

    /** Waits for exit; kills the process and fails after {@code timeout}. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish within " + timeout + "\n" + this);
        }
        Thread.sleep(50); // let the pumps drain
        return process.exitValue();
    }

    void send(String line) throws IOException {
        Writer w = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        w.write(line + "\n");
        w.flush();
    }

    String stdout() {
        synchronized (out) {
            return String.join("\n", out);
        }
    }

    String stderr() {
        synchronized (err) {
            return String.join("\n", err);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        return "--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr();
    }
}
