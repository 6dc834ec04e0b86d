package dev.lockwarden.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Jakarta EE server for tests: Payara Micro (its jar from Maven Central) as a child JVM serving one WAR
 * on a free port, from a fresh root directory (no earlier deployment or database comes back), its output in a
 * log file whose tail goes into every failure message. Tests reach it on 127.0.0.1 only.
 */
public final class PayaraMicroServer implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final String url;

    private PayaraMicroServer(Process process, Path log, String url) {
        this.process = process;
        this.log = log;
        this.url = url;
    }

    /**
     * Starts Payara Micro deploying {@code war} at {@code /contextRoot}; returns at once (see {@link #awaitServing}).
     *
     * @param payaraJar the {@code payara-micro} jar to run
     * @param war the web archive to deploy
     * @param contextRoot the context root, without slashes
     * @param workDir where the log ({@code logName}) and the server's fresh root directory go
     * @param systemProperties {@code -Dname=value} arguments for the server's JVM (e.g. {@code lockwarden.redis})
     * @param logName the name of the server's log file in {@code workDir}
     * @return the started server
     * @throws IOException when the work directory or the log cannot be made
     */
    public static PayaraMicroServer start(
            Path payaraJar, Path war, String contextRoot, Path workDir, String logName, String... systemProperties)
            throws IOException {
        for (Path p : List.of(payaraJar, war)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(p + " is missing: run mvn verify (package builds the WAR, "
                        + "pre-integration-test copies Payara Micro)");
            }
        }
        int port = freePort();
        Path log = workDir.resolve(logName);
        Path rootDir = Files.createTempDirectory(workDir, "payara-root-");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx512m");
        command.addAll(List.of(systemProperties));
        command.addAll(List.of(
                "-jar",
                payaraJar.toString(),
                "--nocluster",
                "--noHazelcast",
                "--port",
                Integer.toString(port),
                "--rootdir",
                rootDir.toString(),
                "--deploy",
                war.toString(),
                "--contextroot",
                contextRoot));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new PayaraMicroServer(process, log, "http://127.0.0.1:" + port + "/" + contextRoot + "/");
    }

    /** {@return {@code http://127.0.0.1:<port>/<contextRoot>/}} */
    public String url() {
        return url;
    }

    /**
     * Polls {@code url() + path} until it answers 200 and returns that body; fails with the log's tail when the
     * server exits or does not answer within {@code limit}.
     *
     * @param path the path below the context root, e.g. {@code "health"}
     * @param limit how long to keep polling
     * @return the body of the first 200 answer
     * @throws InterruptedException when interrupted while waiting
     */
    public String awaitServing(String path, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                HttpResponse<String> r = HTTP.send(
                        HttpRequest.newBuilder(URI.create(url + path))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return r.body();
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Payara Micro did not serve " + url + path + " within " + limit
                + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + "; log " + log + ":\n"
                + logTail());
    }

    /** {@return the last 60 lines of the server's output} */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL after 20 s). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
