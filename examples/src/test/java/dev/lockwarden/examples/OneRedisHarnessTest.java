package dev.lockwarden.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * CONTRIBUTING.md's promise "every module that starts Redis in tests uses the same harness with the same
 * fallback", checked over the sources: outside lock-test-support, no Java file starts a process that
 * names {@code redis-server} or uses the embedded-redis library itself. Everything else goes through
 * {@code dev.lockwarden.testing} (RedisNode, RedisServerExtension, RedisCluster, MutualTlsRedis), which picks the
 * redis-server on the PATH or the embedded one.
 */
class OneRedisHarnessTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EMBEDDED = Pattern.compile("\\bredis\\.embedded\\.");
    /** A process started with redis-server as its command, or with redis-server's own options. */
    private static final Pattern REDIS_PROCESS =
            Pattern.compile("new ProcessBuilder\\([^;]*redis-server|\"--save\"|\"--appendonly\"");
    /** Files that name redis-server without starting it: the run-tests script's test hides it. */
    private static final Set<String> NOT_STARTING = Set.of(
            "examples/src/test/java/dev/lockwarden/examples/RunTestsScriptTest.java",
            "examples/src/test/java/dev/lockwarden/examples/OneRedisHarnessTest.java");
    /**
     * Not a test: a benchmark diagnostic that must run redis-server under valgrind, which the harness cannot
     * wrap. It still takes the binary from the harness ({@code RedisServers.resolve}: PATH, else embedded).
     */
    private static final Set<String> UNDER_ANOTHER_PROGRAM =
            Set.of("benchmarks/src/main/java/dev/lockwarden/bench/CallgrindBound.java");

    @Test
    void onlyTheHarnessStartsRedis() {
        List<String> offenders = javaSources()
                .filter(p -> !ROOT.relativize(p).startsWith("lock-test-support"))
                .filter(p -> !NOT_STARTING.contains(ROOT.relativize(p).toString()))
                .filter(p -> !UNDER_ANOTHER_PROGRAM.contains(ROOT.relativize(p).toString()))
                .filter(p -> startsRedisItself(read(p)))
                .map(p -> ROOT.relativize(p).toString())
                .toList();
        assertEquals(
                List.of(), offenders, "start Redis through dev.lockwarden.testing (lock-test-support), not by hand");
    }

    @Test
    void theCheckRecognisesAHandRolledStart() {
        // control: the shapes a hand-rolled start takes are caught, the harness's use is not
        assertTrue(startsRedisItself("new ProcessBuilder(\"redis-server\", \"--port\", p).start();"));
        assertTrue(startsRedisItself("List<String> cmd = List.of(bin, \"--port\", p, \"--save\", \"\");"));
        assertTrue(startsRedisItself("import redis.embedded.RedisServer;"));
        assertFalse(startsRedisItself("try (RedisNode node = new RedisNode().start()) { }"));
        assertFalse(startsRedisItself("new ProcessBuilder(\"java\", \"-jar\", jar).start(); // talks to redis-server"));
        assertTrue(javaSources().count() > 100, "the scan must see the reactor's sources from " + ROOT);
    }

    static boolean startsRedisItself(String source) {
        return EMBEDDED.matcher(source).find() || REDIS_PROCESS.matcher(source).find();
    }

    private static Stream<Path> javaSources() {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String n =
                            dir.getFileName() == null ? "" : dir.getFileName().toString();
                    return n.equals("target") || n.equals("node_modules") || n.startsWith(".") && !dir.equals(ROOT)
                            ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.toString().endsWith(".java") && file.toString().contains("/src/")) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found.stream();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
