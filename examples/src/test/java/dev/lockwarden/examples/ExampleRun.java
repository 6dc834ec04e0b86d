package dev.lockwarden.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an example's {@code main} in its own JVM, as a user would, and returns its output. */
public final class ExampleRun {
    private ExampleRun() {}

    /** Runs {@code mainClass} with {@code -Dlockwarden.redis=redisUri} (none: it starts its own), exit 0 within 90 s. */
    public static String main(Class<?> mainClass, String redisUri, String... args) throws Exception {
        return start(mainClass, redisUri, args).finish();
    }

    /** Starts {@code mainClass} in a child JVM; output goes to a temp file. */
    public static Child start(Class<?> mainClass, String redisUri, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        if (redisUri != null) {
            cmd.add("-Dlockwarden.redis=" + redisUri);
        }
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        File out = File.createTempFile("example", ".log");
        out.deleteOnExit();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out);
        pb.environment().remove("LOCKWARDEN_REDIS");
        return new Child(pb.start(), out);
    }

    /** A running example JVM. */
    public record Child(Process process, File output) {
        /** Waits (≤ 90 s) for a 0 exit and returns the output. */
        public String finish() throws Exception {
            boolean ended = process.waitFor(90, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly();
            }
            String log = Files.readString(output.toPath(), StandardCharsets.UTF_8);
            assertTrue(ended, "did not end within 90 s:\n" + log);
            assertEquals(0, process.exitValue(), log);
            return log;
        }
    }
}
