package dev.lockwarden.admin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.admin.security.PasswordHasher;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --sentinel mymaster@uri,uri}: one of the topology options, its form checked, and passed to the lock client
 * as a Sentinel deployment (here: no sentinel answers, so the start stops with a message without the password).
 */
@Timeout(60)
class SentinelOptionTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = AdminCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    @Test
    void sentinelIsOneOfTheTopologyOptions() {
        assertEquals(2, run("--redis", "redis://127.0.0.1:1", "--sentinel", "mymaster@redis://127.0.0.1:2"));
        assertTrue(
                err.toString().contains("choose one of --redis, --redlock, --cluster and --sentinel"), err.toString());
    }

    @Test
    void aValueWithoutTheMasterNameIsRefused() {
        assertEquals(2, run("--sentinel", "redis://:S3cret@127.0.0.1:26379"));
        assertTrue(
                err.toString().contains("--sentinel must be the master's name, @, the sentinels' URIs"),
                err.toString());
        assertFalse(err.toString().contains("S3cret"), err.toString());
    }

    @Test
    void theLockClientAsksTheSentinelsAndStopsWhenNoneAnswers() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path users = Files.writeString(
                dir.resolve("users"),
                "viewer = VIEWER:" + PasswordHasher.hash("viewer-pw".toCharArray(), 10_000) + "\n");
        int exit = run(
                "--sentinel",
                "mymaster@redis://:S3cret@127.0.0.1:" + closed,
                "--users",
                users.toString(),
                "--port",
                "0");
        assertEquals(2, exit, err.toString());
        assertTrue(err.toString().startsWith("lockwarden-admin: "), err.toString());
        assertTrue(err.toString().toLowerCase(java.util.Locale.ROOT).contains("sentinel"), err.toString());
        assertFalse(err.toString().contains("S3cret"), err.toString());
    }
}
