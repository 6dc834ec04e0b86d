package dev.lockwarden.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisBinary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diagnostics entry ({@code benchmarks/diagnose} → {@link BoundsMain}) still runs: the {@code scripts}
 * diagnostic with a one-second budget in a child JVM must measure every variant (Lockwarden's own scripts
 * included, so a change to their keys or arguments shows here), and the script refuses an unknown name.
 */
class DiagnosticsSmokeTest {
    private static final Pattern RATE =
            Pattern.compile("^\\s+(.+?)\\s+([\\d,]+) cycles/s\\s+([\\d.]+)x$", Pattern.MULTILINE);

    @Test
    void theScriptsDiagnosticMeasuresEveryVariant(@TempDir Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dbench.bounds=scripts",
                "-Dbench.bounds.threads=2",
                "-Dbench.bounds.seconds=1"));
        String forced = System.getProperty(RedisBinary.SERVER_PROPERTY);
        if (forced != null) {
            cmd.add("-D" + RedisBinary.SERVER_PROPERTY + "=" + forced);
        }
        cmd.add(BoundsMain.class.getName());
        String output = run(cmd, dir.resolve("diagnose.log"), 60);

        Matcher m = RATE.matcher(output);
        List<String> variants = new ArrayList<>();
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(2).replace(",", "")) > 0, m.group(1) + ": no cycles\n" + output);
            variants.add(m.group(1));
        }
        assertEquals(4, variants.size(), output);
        assertTrue(variants.get(1).startsWith("FencingLock"), output);
        assertTrue(variants.get(2).startsWith("Lockwarden's acquire.lua + release.lua"), output);
    }

    @Test
    void theEntryRefusesAnUnknownDiagnosticWithItsUsage(@TempDir Path dir) throws Exception {
        Path script = Path.of(System.getProperty("user.dir"), "diagnose");
        assertTrue(Files.isExecutable(script), script + " is not executable");
        String output = run(List.of(script.toString(), "no-such-diagnostic"), dir.resolve("usage.log"), 2, 20);
        assertTrue(output.contains("usage: benchmarks/diagnose scripts|fanout|instructions"), output);
    }

    private static String run(List<String> cmd, Path log, long timeoutSeconds) throws Exception {
        return run(cmd, log, 0, timeoutSeconds);
    }

    private static String run(List<String> cmd, Path log, int expectedExit, long timeoutSeconds) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, cmd + " did not end within " + timeoutSeconds + " s:\n" + output);
        assertEquals(expectedExit, p.exitValue(), output);
        return output;
    }
}
