package dev.lockwarden.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command ({@code ./run-tests}) on a machine without redis-server, openssl or
 * Chromium: those are hidden for one command by an overlay on {@code /usr/bin} with whiteouts in a
 * private mount namespace ({@code unshare -m}, root only), so nothing outside that command changes.
 * {@code --dry-run} stops before Maven; the full run is checked from a fresh clone (see the README).
 */
class RunTestsScriptTest {
    private static final Path SCRIPT = Path.of("..", "run-tests").toAbsolutePath().normalize();
    private static final List<String> HIDDEN = List.of("redis-server", "redis-cli", "openssl", "chromium", "chromedriver");

    @TempDir
    Path tmp;

    @Test
    void reportsWhatIsMissingAndStillRunsMavenWithTheExtraArguments() throws Exception {
        assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/bin/unshare")), "needs root and unshare(1) to hide /usr/bin entries");
        String out = runHidden("--dry-run", "--no-install", "-pl", "lock-core");
        assertTrue(out.contains("redis-server missing: tests use the Redis 6.2 binary inside embedded-redis"), out);
        assertTrue(out.contains("Install: sudo apt-get install -y redis-server"), out);
        assertTrue(out.contains("openssl missing: the TLS tests skip"), out);
        assertTrue(out.contains("chromium/chromedriver missing: the dashboard's browser tests skip. Install: sudo apt-get install -y chromium chromium-driver"), out);
        assertTrue(out.contains("would run: mvn -B verify -pl lock-core"), out);
        assertFalse(out.contains("installing"), out);
    }

    @Test
    void asRootWithAptItOffersToInstallExactlyWhatIsMissing() throws Exception {
        assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/bin/unshare")), "needs root and unshare(1) to hide /usr/bin entries");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/apt-get")), "no apt-get");
        String out = runHidden("--dry-run");
        assertTrue(out.contains("would install: redis-server redis-tools openssl chromium chromium-driver"), out);
        assertTrue(out.contains("would run: mvn -B verify"), out);
    }

    @Test
    void saysNothingIsMissingWhenEverythingIsInstalled() throws Exception {
        assumeTrue(HIDDEN.stream().allMatch(b -> Files.isExecutable(Path.of("/usr/bin", b))), "not everything is installed here");
        String out = run(List.of("bash", SCRIPT.toString(), "--dry-run", "-q"));
        assertFalse(out.contains("missing"), out);
        assertTrue(out.contains("Redis for the tests: Redis server v="), out);
        assertTrue(out.contains("would run: mvn -B verify -q"), out);
    }

    /** Runs the script with the {@link #HIDDEN} binaries whited out of /usr/bin. */
    private String runHidden(String... args) throws Exception {
        Path up = Files.createDirectories(tmp.resolve("up"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        StringBuilder sh = new StringBuilder("set -e; ");
        for (String b : HIDDEN) {
            sh.append("mknod ").append(up.resolve(b)).append(" c 0 0; "); // a whiteout: the entry disappears
        }
        sh.append("mount -t overlay overlay -o lowerdir=/usr/bin,upperdir=").append(up)
                .append(",workdir=").append(work).append(" /usr/bin; exec bash ").append(SCRIPT);
        for (String a : args) {
            sh.append(' ').append(a);
        }
        return run(List.of("unshare", "-m", "bash", "-c", sh.toString()));
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("CI"); // a newcomer's shell: under CI the browser-test line says they FAIL instead
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "run-tests did not finish: " + out);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
