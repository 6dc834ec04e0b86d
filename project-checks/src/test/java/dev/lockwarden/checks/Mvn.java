package dev.lockwarden.checks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the {@code mvn} on the PATH in a directory, bounded in time, and returns its exit status and output. */
final class Mvn {
    /** What one run gave. */
    record Result(int exit, String output) {}

    private Mvn() {}

    static Result run(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-q"));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "mvn-", ".log");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, cmd + " did not finish within 120 s:\n" + output);
        return new Result(p.exitValue(), output);
    }
}
