package dev.lockwarden.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command ({@code ./run-tests}) on a machine without redis-server, redis-cli, openssl or
 * Chromium: those are hidden for one command by an overlay on {@code /usr/bin} with whiteouts in a
 * private mount namespace ({@code unshare -m}, root only), so nothing outside that command changes.
 * Who the user is and what the machine has is decided by small scripts first on the PATH — {@code id}
 * (the uid), {@code sudo} (passwordless or asking for a password), {@code apt-get} and {@code mvn} —
 * that record how they were called and change nothing. So each case runs the script's real decision
 * code, and the commands it prints are compared with the ones it then really runs.
 */
class RunTestsScriptTest {
    private static final Path SCRIPT =
            Path.of("..", "run-tests").toAbsolutePath().normalize();
    private static final List<String> HIDDEN =
            List.of("redis-server", "redis-cli", "openssl", "chromium", "chromedriver");
    private static final String MISSING = "redis-server redis-tools openssl chromium chromium-driver";
    private static final String INSTALL = "env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + MISSING;
    private static final String UPDATE = "env DEBIAN_FRONTEND=noninteractive apt-get update -qq";

    @TempDir
    Path tmp;

    private Path bin;
    private Path calls;

    @BeforeEach
    void shims() throws IOException {
        bin = Files.createDirectories(tmp.resolve("bin"));
        calls = tmp.resolve("calls.log");
        // apt-get and mvn: record the call (apt-get with the DEBIAN_FRONTEND it got), install/build nothing
        shim("apt-get", "echo \"apt-get DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*\" >> " + calls);
        shim("mvn", "echo \"mvn $*\" >> " + calls);
    }

    @Test
    void asRootWithAptTheDryRunPrintsExactlyTheCommandsTheRealRunRuns() throws Exception {
        assumeOverlay();
        uid(0);
        String dry = runHidden(List.of(), "--dry-run", "-pl", "lock-core");
        assertTrue(dry.contains("run-tests: would install: " + MISSING), dry);
        assertEquals(List.of(UPDATE, INSTALL, "mvn -B verify -pl lock-core"), printed(dry, "would run: "), dry);
        assertEquals(List.of(), calls(), "a dry run runs nothing");

        String real = runHidden(List.of(), "-pl", "lock-core");
        assertTrue(real.contains("run-tests: installing: " + MISSING), real);
        assertEquals(
                printed(dry, "would run: "),
                printed(real, "running: "),
                "the dry run printed what the real run runs\n" + real);
        assertEquals(
                List.of(
                        "apt-get DEBIAN_FRONTEND=noninteractive update -qq",
                        "apt-get DEBIAN_FRONTEND=noninteractive install -y -qq " + MISSING,
                        "mvn -B verify -pl lock-core"),
                calls(),
                real);
        // this apt-get installed nothing: the script must say so, and what that means, not claim success
        assertTrue(real.contains("apt-get finished, but still missing: " + MISSING), real);
        assertTrue(real.contains("redis-server missing: tests use the Redis 6.2 binary inside embedded-redis"), real);
    }

    @Test
    void notRootWithPasswordlessSudoItInstallsThroughSudo() throws Exception {
        assumeOverlay();
        uid(1000);
        shim(
                "sudo",
                "echo \"sudo $*\" >> " + calls
                        + "\n[ \"$*\" = \"-n true\" ] && exit 0\n[ \"$1\" = -n ] && shift\nexec \"$@\"");
        String dry = runHidden(List.of(), "--dry-run");
        assertEquals(
                List.of("sudo -n " + UPDATE, "sudo -n " + INSTALL, "mvn -B verify"), printed(dry, "would run: "), dry);
        assertEquals(List.of("sudo -n true"), calls(), "the dry run only asks whether sudo needs a password");

        Files.delete(calls);
        String real = runHidden(List.of());
        assertEquals(printed(dry, "would run: "), printed(real, "running: "), real);
        assertEquals(
                List.of(
                        "sudo -n true",
                        "sudo -n " + UPDATE,
                        "apt-get DEBIAN_FRONTEND=noninteractive update -qq",
                        "sudo -n " + INSTALL,
                        "apt-get DEBIAN_FRONTEND=noninteractive install -y -qq " + MISSING,
                        "mvn -B verify"),
                calls(),
                real);
    }

    @Test
    void notRootAndSudoWantsAPasswordItInstallsNothingAndSaysHowTo() throws Exception {
        assumeOverlay();
        uid(1000);
        shim("sudo", "echo \"sudo $*\" >> " + calls + "\necho 'sudo: a password is required' >&2\nexit 1");
        String out = runHidden(List.of(), "-pl", "lock-core");
        assertTrue(out.contains("run-tests: not root (and no passwordless sudo): not installing " + MISSING), out);
        assertEquals(
                List.of("sudo -n true", "mvn -B verify -pl lock-core"), calls(), "no apt-get, tests still run\n" + out);
        assertNamesTheInstallCommands(out);
    }

    @Test
    void notRootWithoutSudoItInstallsNothingAndSaysHowTo() throws Exception {
        assumeOverlay();
        assumeTrue(
                !Files.exists(Path.of("/usr/bin/sudo")) && !Files.exists(Path.of("/usr/local/bin/sudo")),
                "sudo is installed here");
        uid(1000);
        String out = runHidden(List.of(), "--dry-run");
        assertTrue(out.contains("run-tests: not root (and no passwordless sudo): not installing " + MISSING), out);
        assertEquals(List.of("mvn -B verify"), printed(out, "would run: "), out);
        assertNamesTheInstallCommands(out);
    }

    @Test
    void withoutAptGetItInstallsNothingAndSaysHowTo() throws Exception {
        assumeOverlay();
        uid(0);
        Files.delete(bin.resolve("apt-get"));
        String out = runHidden(List.of("apt-get"), "-pl", "lock-core");
        assertTrue(out.contains("run-tests: no apt-get on this machine: not installing " + MISSING), out);
        assertEquals(List.of("mvn -B verify -pl lock-core"), calls(), out);
        assertNamesTheInstallCommands(out);
    }

    @Test
    void noInstallOnlyReportsWhatIsMissing() throws Exception {
        assumeOverlay();
        uid(0);
        String out = runHidden(List.of(), "--no-install", "-pl", "lock-core");
        assertEquals(List.of("mvn -B verify -pl lock-core"), calls(), out);
        assertFalse(out.contains("installing") || out.contains("would install") || out.contains("not installing"), out);
        assertNamesTheInstallCommands(out);
    }

    @Test
    void saysNothingIsMissingWhenEverythingIsInstalled() throws Exception {
        assumeTrue(
                HIDDEN.stream().allMatch(b -> Files.isExecutable(Path.of("/usr/bin", b))),
                "not everything is installed here");
        String out = run(List.of("bash", "-c", "PATH=" + bin + ":$PATH exec bash " + SCRIPT + " -q"));
        assertFalse(out.contains("missing"), out);
        assertTrue(out.contains("Redis for the tests: Redis server v="), out);
        assertEquals(List.of("mvn -B verify -q"), calls(), out);
    }

    /** CONTRIBUTING.md: ".ci/run calls exactly that command" — then the Java 25 pass, when that JDK is there. */
    @Test
    void ciRunsExactlyTheReadmesTestCommand() throws Exception {
        uid(1000); // never installs for real here, whatever is missing on this machine
        shim("mvn", "echo \"JAVA_HOME=$JAVA_HOME mvn $*\" >> " + calls);
        Path ci = SCRIPT.resolveSibling(".ci").resolve("run");
        String out = run(List.of("bash", "-c", "PATH=" + bin + ":$PATH JAVA_HOME=inherited exec bash " + ci));
        List<String> expected = new ArrayList<>(List.of("JAVA_HOME=inherited mvn -B verify"));
        Path jdk25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
        if (Files.isExecutable(jdk25.resolve("bin/java"))) {
            expected.add(
                    "JAVA_HOME=" + jdk25
                            + " mvn -B verify -Dmaven.javadoc.skip=true -pl lock-test-support,lock-core,lock-shedlock,lock-interceptor,lock-agent,admin-ui");
        }
        assertEquals(expected, calls(), out);
        assertTrue(out.contains("run-tests: running: mvn -B verify\n"), "through ./run-tests itself\n" + out);
    }

    private static void assertNamesTheInstallCommands(String out) {
        assertTrue(
                out.contains(
                        "redis-server missing: tests use the Redis 6.2 binary inside embedded-redis (TLS tests skip)."
                                + " Install: sudo apt-get install -y redis-server"),
                out);
        assertTrue(out.contains("openssl missing: the TLS tests skip. Install: sudo apt-get install -y openssl"), out);
        assertTrue(
                out.contains("chromium/chromedriver missing: the dashboard's browser tests skip."
                        + " Install: sudo apt-get install -y chromium chromium-driver"),
                out);
    }

    private static void assumeOverlay() {
        assumeTrue(
                "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/unshare")),
                "needs root and unshare(1) to hide /usr/bin entries");
    }

    /** {@code id -u} answers {@code uid}; anything else goes to the real id. */
    private void uid(int uid) throws IOException {
        shim("id", "[ \"$1\" = -u ] && { echo " + uid + "; exit 0; }\nexec /usr/bin/id \"$@\"");
    }

    private void shim(String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls, StandardCharsets.UTF_8) : List.of();
    }

    /** The commands after {@code prefix} on the script's own lines, in order. */
    private static List<String> printed(String out, String prefix) {
        List<String> l = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("run-tests: " + prefix)) {
                l.add(line.substring(("run-tests: " + prefix).length()));
            }
        }
        return l;
    }

    /** Runs the script with {@link #HIDDEN} (and {@code alsoHidden}) whited out of /usr/bin and the shims first on the PATH. */
    private String runHidden(List<String> alsoHidden, String... args) throws Exception {
        Path up = Files.createDirectories(tmp.resolve("up-" + System.nanoTime()));
        Path work = Files.createDirectories(tmp.resolve("work-" + System.nanoTime()));
        StringBuilder sh = new StringBuilder("set -e; ");
        List<String> hide = new ArrayList<>(HIDDEN);
        hide.addAll(alsoHidden);
        for (String b : hide) {
            sh.append("mknod ").append(up.resolve(b)).append(" c 0 0; "); // a whiteout: the entry disappears
        }
        sh.append("mount -t overlay overlay -o lowerdir=/usr/bin,upperdir=")
                .append(up)
                .append(",workdir=")
                .append(work)
                .append(" /usr/bin; PATH=")
                .append(bin)
                .append(":$PATH exec bash ")
                .append(SCRIPT);
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
}
