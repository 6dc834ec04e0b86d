package dev.lockwarden.agent;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent's integration tests share: a temporary directory for their config files, a bound for each child
 * JVM ({@link ChildJvm}), and helpers. Tests that need a Redis extend {@link RedisAgentTestBase}.
 */
abstract class AgentTestBase {
    /** How long one child JVM may run. */
    static final Duration RUN = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** Writes a config file of these lines into the test's directory. */
    Path write(String name, String... lines) throws IOException {
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    /** A loopback port nothing listens on (free when asked): a Redis that is down. */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
