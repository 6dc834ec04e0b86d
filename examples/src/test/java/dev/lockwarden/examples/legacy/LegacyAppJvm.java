package dev.lockwarden.examples.legacy;

import dev.lockwarden.examples.BuiltArtifacts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The legacy app ({@code java -jar legacy-app.jar}) in a JVM of its own, as the README runs it: its class path
 * is its own jar's manifest (Tomcat, Byte Buddy 1.14) and the web app's jars (Jedis 5), never this test's.
 * Output is collected line by line; every wait is bounded.
 */
final class LegacyAppJvm implements AutoCloseable {
    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();

    private LegacyAppJvm(Process process) {
        this.process = process;
        pump(process.getInputStream(), out, "out");
        pump(process.getErrorStream(), err, "err");
    }

    /** {@code java [jvmArgs] -jar legacy-app.jar}. */
    static LegacyAppJvm start(List<String> jvmArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx192m"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-jar", BuiltArtifacts.legacyAppJar().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("LOCKWARDEN_REDIS");
        return new LegacyAppJvm(pb.start());
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
                "legacy-app-" + name);
        t.setDaemon(true);
        t.start();
    }

    /** The port from its {@code LISTENING <port>} line, waiting up to {@code timeout}. */
    int awaitPort(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                for (String l : out) {
                    if (l.startsWith("LISTENING ")) {
                        return Integer.parseInt(
                                l.substring("LISTENING ".length()).trim());
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.isAlive()) {
                    throw new AssertionError(
                            "no LISTENING line within " + timeout + " (alive: " + process.isAlive() + ")\n" + this);
                }
                TimeUnit.NANOSECONDS.timedWait(out, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
            }
        }
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

    /** SIGTERM (its shutdown hook stops Tomcat and removes its temp dir), then SIGKILL after 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr();
    }
}
