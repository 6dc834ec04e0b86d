package dev.lockwarden.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs the demo as a newcomer would (a separate JVM, no Redis configured) and checks what it shows. */
class DemoTest {
    @Test
    void demoRunsEndToEndAgainstItsOwnRedis() throws Exception {
        String javaCmd = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(
                        List.of(javaCmd, "-cp", System.getProperty("java.class.path"), Demo.class.getName()))
                .redirectErrorStream(true);
        pb.environment().remove("LOCKWARDEN_REDIS");
        File out = File.createTempFile("demo", ".log");
        Process p = pb.redirectOutput(out).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "demo did not end");
        String log = java.nio.file.Files.readString(out.toPath(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("customer charged 1 time(s)"), log);
        assertTrue(
                log.matches("(?s).*writes 0\\.00 with its old fence \\d+: rejected.*"),
                log); // fences start at a server-clock floor
        assertTrue(log.contains("balance is 70.00"), log);
        assertTrue(log.contains("t=2.0s held=true"), log);
        assertTrue(log.contains("was told: lost 'import:partner-feed'"), log);
    }
}
