package dev.lockwarden.failover;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@link FenceClient}s in a second JVM (as {@code stress/MultiJvmStress} starts its workers), stopped through stdin. */
final class ChildClients {

    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\d+)");

    private final Process process;
    private final File log;

    private ChildClients(Process process, File log) {
        this.process = process;
        this.log = log;
    }

    static ChildClients start(String topology, String url, String name, int clients, String prefix) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(
                List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), FenceClient.class.getName()));
        cmd.addAll(List.of(topology, url, name, Integer.toString(clients), prefix));
        File log = File.createTempFile("fence-clients-", ".log");
        log.deleteOnExit();
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        return new ChildClients(p, log);
    }

    /** The child's output so far. */
    String log() throws IOException {
        return Files.readString(log.toPath(), StandardCharsets.UTF_8);
    }

    /**
     * Tells the child to stop and waits (bounded) for its result.
     *
     * @return the child's counters
     * @throws AssertionError if it does not finish, prints no result or reports a hanging client
     */
    Map<String, Long> stop() throws Exception {
        try (OutputStream in = process.getOutputStream()) {
            in.write("stop\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // already gone: the result check below says why
        }
        if (!process.waitFor(FenceClient.WAIT.plus(FenceClient.SLACK).toSeconds() + 30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the child JVM's clients did not stop:\n" + log());
        }
        String out = log();
        int at = out.indexOf("RESULT");
        if (at < 0 || out.contains("HANGING")) {
            throw new AssertionError("the child JVM (exit " + process.exitValue() + ") failed:\n" + out);
        }
        Map<String, Long> result = new TreeMap<>();
        Matcher m = PAIR.matcher(out.substring(at, out.indexOf('\n', at)));
        while (m.find()) {
            result.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return result;
    }

    void destroy() {
        process.destroyForcibly();
    }
}
