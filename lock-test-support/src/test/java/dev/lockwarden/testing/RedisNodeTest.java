package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

@Timeout(60)
class RedisNodeTest {

    @Test
    void startsOnLoopbackAndAnswersPing() {
        try (RedisNode node = new RedisNode().start()) {
            assertTrue(node.isRunning());
            assertTrue(node.port() > 0);
            assertEquals("127.0.0.1", node.host());
            assertEquals("redis://127.0.0.1:" + node.port(), node.uri());
            assertEquals("PONG", node.command("PING"));
            assertEquals("bind\n127.0.0.1", node.command("CONFIG", "GET", "bind"));
            assertEquals("save\n", node.command("CONFIG", "GET", "save"));
            assertEquals("appendonly\nno", node.command("CONFIG", "GET", "appendonly"));
            assertTrue(node.command("INFO", "server").contains("process_id:" + node.pid() + "\r\n"));
            try (RedisClient jedis =
                    RedisClient.builder().hostAndPort(node.host(), node.port()).build()) {
                jedis.set("k", "v");
                assertEquals("v", jedis.get("k"));
            }
        }
    }

    @Test
    void commandRendersRepliesAndErrors() {
        try (RedisNode node = new RedisNode().start()) {
            assertNull(node.command("GET", "missing"));
            assertEquals("2", node.command("RPUSH", "list", "a b", "ü"));
            assertEquals("a b\nü", node.command("LRANGE", "list", "0", "-1"));
            RedisReplyException e = assertThrows(RedisReplyException.class, () -> node.command("GET", "list"));
            assertEquals("WRONGTYPE", e.code());
        }
    }

    @Test
    void killedNodeRefusesConnections() {
        try (RedisNode node = new RedisNode().start()) {
            long pid = node.pid();
            node.kill();
            assertFalse(node.isRunning());
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> node.command("PING"));
            assertInstanceOf(ConnectException.class, e.getCause());
        }
    }

    @Test
    void restartUsesSamePortWithEmptyData() {
        try (RedisNode node = new RedisNode().start()) {
            int port = node.port();
            long pid = node.pid();
            node.command("SET", "k", "v");
            node.restart();
            assertEquals(port, node.port());
            assertNotEquals(pid, node.pid());
            assertEquals("PONG", node.command("PING"));
            assertNull(node.command("GET", "k"));
            // a killed node can also be brought back with start()
            node.kill();
            node.start();
            assertEquals(port, node.port());
            assertEquals("PONG", node.command("PING"));
        }
    }

    @Test
    void pausedNodeTimesOutUntilResumed() {
        try (RedisNode node = new RedisNode().start();
                RedisClient jedis = RedisClient.builder()
                        .hostAndPort(node.host(), node.port())
                        .clientConfig(DefaultJedisClientConfig.builder()
                                .socketTimeoutMillis(300)
                                .build())
                        .build()) {
            assertEquals("PONG", jedis.ping());
            node.pause();
            assertTrue(node.isPaused());
            assertTrue(node.isRunning());

            long start = System.nanoTime();
            UncheckedIOException e =
                    assertThrows(UncheckedIOException.class, () -> node.command(Duration.ofMillis(300), "PING"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertInstanceOf(SocketTimeoutException.class, e.getCause());
            assertTrue(millis >= 250 && millis < 3000, "timed out after " + millis + " ms");
            assertThrows(JedisConnectionException.class, jedis::ping);

            node.resume();
            assertFalse(node.isPaused());
            assertEquals("PONG", node.command(Duration.ofMillis(300), "PING"));
            assertEquals("PONG", jedis.ping());
        }
    }

    @Test
    void stopResumesPausedNodeEndsProcessAndDeletesDir() {
        RedisNode node = new RedisNode().start();
        long pid = node.pid();
        Path dir = node.dir();
        node.pause();
        node.stop();
        assertFalse(node.isRunning());
        assertFalse(node.isPaused());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertFalse(Files.exists(dir));
        node.stop(); // idempotent
    }

    @Test
    void passwordIsUsedByCommand() {
        try (RedisNode node = new RedisNode("--requirepass", "secret").start()) {
            assertEquals("PONG", node.command("PING"));
            try (RedisClient anonymous =
                    RedisClient.builder().hostAndPort(node.host(), node.port()).build()) {
                JedisDataException e = assertThrows(JedisDataException.class, anonymous::ping);
                assertTrue(e.getMessage().contains("NOAUTH"), e.getMessage());
            }
            try (RedisClient authed = RedisClient.builder()
                    .hostAndPort(node.host(), node.port())
                    .clientConfig(DefaultJedisClientConfig.builder()
                            .password("secret")
                            .build())
                    .build()) {
                assertEquals("PONG", authed.ping());
            }
        }
    }

    @Test
    void startFailureReportsServerOutput() {
        RedisNode node = new RedisNode("--no-such-directive", "x");
        IllegalStateException e = assertThrows(IllegalStateException.class, node::start);
        assertTrue(e.getMessage().contains("no-such-directive"), e.getMessage());
        assertFalse(node.isRunning());
        node.stop();
    }

    @Test
    void embeddedBinaryCanBeExtractedAndStarted() {
        RedisBinary embedded = RedisBinary.embedded();
        assertTrue(embedded.isEmbedded());
        assertTrue(Files.isExecutable(embedded.path()), embedded.path().toString());
        assertTrue(embedded.version().startsWith("6.2."), embedded.version());
        assertEquals(6, embedded.majorVersion());
        assertEquals(embedded.path(), RedisBinary.embedded().path(), "extracted once per JVM");
        try (RedisNode node = new RedisNode(embedded).start()) {
            assertEquals("PONG", node.command("PING"));
            assertTrue(node.command("INFO", "server").contains("redis_version:6.2."));
        }
    }

    @Test
    void detectPrefersRedisServerOnPath() {
        assumeTrue(System.getProperty(RedisBinary.SERVER_PROPERTY) == null, "detection overridden");
        assumeTrue(RedisBinary.onPath().isPresent(), "no redis-server installed");
        RedisBinary detected = RedisBinary.detect();
        assertFalse(detected.isEmbedded());
        assertEquals(RedisBinary.onPath().get().path(), detected.path());
        assertTrue(detected.majorVersion() >= 6, detected.version());
    }

    @Test
    void clusterNodeNeedsFreeBusPortAndWritesNodesConfInItsDir() {
        try (RedisNode node = new RedisNode("--cluster-enabled", "yes").start()) {
            assertTrue(node.port() + 10000 <= 65535);
            assertTrue(node.command("CLUSTER", "INFO").contains("cluster_state:fail"));
            assertTrue(Files.exists(node.dir().resolve("nodes.conf")));
        }
    }

    @Test
    @Timeout(90)
    void shutdownHookKillsNodesLeftRunning() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), LeakyMain.class.getName())
                .redirectErrorStream(true)
                .start();
        String out;
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not exit");
            out = reader.lines().reduce("", (a, b) -> a + b + "\n");
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), out);
        String pidLine =
                out.lines().filter(l -> l.startsWith("pid=")).findFirst().orElseThrow(() -> new AssertionError(out));
        long pid = Long.parseLong(pidLine.substring(4).trim());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "redis-server " + pid + " leaked");
    }

    /** Child JVM for {@link #shutdownHookKillsNodesLeftRunning()}: starts a paused node and exits. */
    static final class LeakyMain {
        public static void main(String[] args) {
            RedisNode node = new RedisNode().start();
            node.pause(); // SIGKILL must work on a stopped process too
            System.out.println("pid=" + node.pid()); // never stopped: the shutdown hook must kill it
        }
    }
}
