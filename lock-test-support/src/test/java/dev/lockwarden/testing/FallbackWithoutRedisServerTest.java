package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A machine without redis-server: {@code /usr/bin/redis-server} is hidden for one child JVM by an
 * overlay with a whiteout in a private mount namespace (root only; nothing outside changes). The
 * harness must fall back to the embedded binary, say so once, and start a working server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FallbackWithoutRedisServerTest {
    @TempDir
    Path tmp;

    /** Run in the child JVM: detect, start, PING. */
    public static final class Probe {
        public static void main(String[] args) {
            RedisBinary binary = RedisBinary.detect();
            try (RedisNode node = new RedisNode(binary).start()) {
                System.out.println("embedded=" + binary.isEmbedded() + " version=" + binary.version() + " ping="
                        + node.command("PING"));
            }
        }
    }

    @Test
    void withoutRedisServerTheEmbeddedBinaryIsUsedAndTheUserIsTold() throws Exception {
        assumeTrue(
                "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/unshare")),
                "needs root and unshare(1) to hide /usr/bin/redis-server");
        assumeTrue(
                !Files.exists(Path.of("/usr/local/bin/redis-server")),
                "a redis-server in /usr/local/bin cannot be hidden here");
        Path up = Files.createDirectories(tmp.resolve("up"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        String java = ProcessHandle.current().info().command().orElse("java");
        String sh = "set -e; mknod " + up.resolve("redis-server") + " c 0 0; "
                + "mount -t overlay overlay -o lowerdir=/usr/bin,upperdir=" + up + ",workdir=" + work + " /usr/bin; "
                + "exec " + java + " -cp '" + System.getProperty("java.class.path") + "' '" + Probe.class.getName()
                + "'";
        Process p = new ProcessBuilder(List.of("unshare", "-m", "bash", "-c", sh))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("embedded=true version=6.2.") && out.contains("ping=PONG"), out);
        assertTrue(out.contains(RedisBinary.FALLBACK_NOTICE), "the fallback is announced: " + out);
        assertEquals(
                out.indexOf(RedisBinary.FALLBACK_NOTICE), out.lastIndexOf(RedisBinary.FALLBACK_NOTICE), "once: " + out);
    }
}
