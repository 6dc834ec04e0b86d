package dev.lockwarden.stress;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.RedisClient;

/**
 * Runs {@link StressWorker} in several separate JVMs at once against one lock and one data Redis,
 * then reads the shared counter. Use {@link #start} to act (kill nodes...) while it runs.
 */
public final class MultiJvmStress {
    private static final Pattern RESULT =
            Pattern.compile("RESULT sections=(\\d+) maxOverlap=(\\d+) fenceViolations=(\\d+) errors=(\\d+)");

    private final List<Process> processes = new ArrayList<>();
    private final List<File> outputs = new ArrayList<>();
    private final String dataUri;
    private final Duration timeout;

    private MultiJvmStress(String dataUri, Duration timeout) {
        this.dataUri = dataUri;
        this.timeout = timeout;
    }

    /**
     * Starts the JVMs.
     *
     * @param lockSettings {@code lockwarden.*} system properties for the workers (topology)
     * @param dataUri      the Redis holding the counter (a standalone node)
     */
    public static MultiJvmStress start(
            Map<String, String> lockSettings,
            String dataUri,
            String lockName,
            int jvms,
            int threads,
            int iterations,
            boolean useLock,
            Duration timeout)
            throws IOException {
        try (RedisClient data = RedisClient.create(java.net.URI.create(dataUri))) {
            data.del(StressWorker.COUNTER, StressWorker.LAST_FENCE, StressWorker.INSIDE);
        }
        MultiJvmStress run = new MultiJvmStress(dataUri, timeout);
        String java = ProcessHandle.current().info().command().orElse("java");
        for (int j = 0; j < jvms; j++) {
            List<String> cmd = new ArrayList<>();
            cmd.add(java);
            cmd.add("-Xmx256m");
            lockSettings.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(StressWorker.class.getName());
            cmd.addAll(List.of(
                    dataUri,
                    lockName,
                    Integer.toString(threads),
                    Integer.toString(iterations),
                    Boolean.toString(useLock),
                    Long.toString(timeout.toSeconds())));
            File out = File.createTempFile("stress-jvm" + j + "-", ".log");
            out.deleteOnExit();
            run.outputs.add(out);
            run.processes.add(new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(out)
                    .start());
        }
        return run;
    }

    /** Waits for every JVM (bounded by the timeout plus a margin) and sums their results. */
    public StressResult await() throws Exception {
        long sections = 0;
        long maxOverlap = 0;
        long fenceViolations = 0;
        long errors = 0;
        StringBuilder logs = new StringBuilder();
        for (int j = 0; j < processes.size(); j++) {
            Process p = processes.get(j);
            if (!p.waitFor(timeout.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("stress JVM " + j + " did not finish within " + timeout);
            }
            String log = java.nio.file.Files.readString(outputs.get(j).toPath(), StandardCharsets.UTF_8);
            logs.append("--- JVM ").append(j).append(" ---\n").append(log);
            Matcher m = RESULT.matcher(log);
            if (!m.find()) {
                throw new AssertionError(
                        "stress JVM " + j + " printed no RESULT (exit " + p.exitValue() + "):\n" + log);
            }
            sections += Long.parseLong(m.group(1));
            maxOverlap = Math.max(maxOverlap, Long.parseLong(m.group(2)));
            fenceViolations += Long.parseLong(m.group(3));
            errors += Long.parseLong(m.group(4));
        }
        long counter;
        try (RedisClient data = RedisClient.create(java.net.URI.create(dataUri))) {
            String v = data.get(StressWorker.COUNTER);
            counter = v == null ? 0 : Long.parseLong(v);
        }
        return new StressResult(sections, counter, maxOverlap, fenceViolations, errors, logs.toString());
    }

    /** Kills the workers if a test gives up early. */
    public void destroy() {
        processes.forEach(Process::destroyForcibly);
    }

    /**
     * Sum over all JVMs.
     *
     * @param sections        critical sections completed
     * @param counter         final value of the shared counter (equals sections when nothing was lost)
     * @param maxOverlap      most sections seen inside at once (1 = mutual exclusion held)
     * @param fenceViolations sections whose fencing token was not above the last one written
     * @param errors          sections that failed (e.g. lock not acquired)
     * @param logs            the workers' output, for assertion messages
     */
    public record StressResult(
            long sections, long counter, long maxOverlap, long fenceViolations, long errors, String logs) {
        public long lostUpdates() {
            return sections - counter;
        }
    }
}
