package dev.lockwarden.admin.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code java -jar lockwarden-admin.jar ...} in a child JVM, its output (stdout + stderr) collected line by line. */
final class JarProcess implements AutoCloseable {
    static final Path JAR = Path.of(System.getProperty("lockwarden.admin.jar", "target/lockwarden-admin.jar"));

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private boolean ended;

    JarProcess(Path jar, Path workDir, String stdin, String... args) throws IOException {
        this(jar, workDir, stdin, Map.of(), args);
    }

    /** With {@code env} added to an environment cleared of every {@code LOCKWARDEN_*} variable. */
    JarProcess(Path jar, Path workDir, String stdin, Map<String, String> env, String... args) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar.toAbsolutePath() + " is missing: run `mvn -pl admin-ui -am verify` (package builds it)");
        }
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                jar.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("LOCKWARDEN_"));
        pb.environment().putAll(env);
        process = pb.start();
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            synchronized (lines) {
                                lines.add(line);
                                lines.notifyAll();
                            }
                        }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                    synchronized (lines) {
                        ended = true;
                        lines.notifyAll();
                    }
                },
                "jar-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The first output line matching {@code regex}, waiting up to {@code timeout}. */
    Matcher await(String regex, Duration timeout) throws InterruptedException {
        Pattern p = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            while (true) {
                for (String l : lines) {
                    Matcher m = p.matcher(l);
                    if (m.find()) {
                        return m;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || ended) {
                    throw new AssertionError(
                            "no output line matching " + regex + " within " + timeout + "; output:\n" + output());
                }
                lines.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 200)));
            }
        }
    }

    int exitCode(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the jar did not exit within " + timeout + "; output:\n" + output());
        }
        return process.exitValue();
    }

    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
