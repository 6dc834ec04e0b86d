package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The shutdown hook, in real child JVMs that exit without closing their LockManager. */
class ShutdownHookTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @BeforeEach
    void flush() {
        REDIS.flushAll();
    }

    /** Starts the child, waits for HELD; returns it with stdin open. */
    private static Process child(boolean hook, String... names) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                ShutdownHookChild.class.getName(),
                REDIS.uri(),
                Boolean.toString(hook)));
        cmd.addAll(List.of(names));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (String line; (line = out.readLine()) != null; ) {
            if (line.equals("HELD")) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) {
                            // keep the pipe empty
                        }
                    } catch (java.io.IOException ignored) {
                        // child gone
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return p;
            }
            assertTrue(System.nanoTime() < deadline, "child did not start: " + line);
        }
        throw new AssertionError("child exited before taking its locks, exit " + p.waitFor());
    }

    /** Tells the child to exit; returns how long the exit took in ms. */
    private static long exit(Process p) throws Exception {
        long t0 = System.nanoTime();
        try (Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            in.write("exit\n");
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not exit");
        assertEquals(0, p.exitValue());
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    @Test
    void locksStillHeldAtExitAreReleasedByTheHook() throws Exception {
        Process p = child(true, "hook:a", "hook:b", "hook:c");
        assertEquals("1", REDIS.node(0).command("EXISTS", "lock:{hook:a}"));
        exit(p);
        for (String n : List.of("hook:a", "hook:b", "hook:c")) {
            assertNull(REDIS.node(0).command("GET", "lock:{" + n + "}"), n + " still held after the JVM exited");
        }
    }

    @Test
    void controlWithoutTheHookTheLocksStayUntilTheirTtl() throws Exception {
        Process p = child(false, "nohook:a");
        exit(p);
        long pttl = Long.parseLong(REDIS.node(0).command("PTTL", "lock:{nohook:a}"));
        assertTrue(pttl > 50_000, "without the hook the lock should stay for its 60 s TTL, PTTL " + pttl);
    }

    @Test
    void aStalledRedisDelaysTheExitOnlyBoundedly() throws Exception {
        Process p = child(true, "stalled:a");
        REDIS.node(0).pause();
        long took;
        try {
            took = exit(p);
        } finally {
            REDIS.node(0).resume();
        }
        assertTrue(took < 9_000, "exit took " + took + " ms with Redis stalled (bound 5 s)");
    }
}
