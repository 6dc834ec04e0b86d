package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code onLost=interrupt}: a method whose lock is deleted while it sleeps is interrupted at the next refresh and
 * its caller gets the interruption with the {@code LockLostException} added; with {@code onLost=log} (the control)
 * the same method sleeps to the end and returns. A force-release (as the dashboard does it) interrupts at once,
 * long before the next refresh.
 */
@Timeout(120)
class OnLostInterruptIT extends RedisAgentTestBase {
    private static final long SLEEP_MILLIS = 6000;
    private static final Pattern AFTER = Pattern.compile("after=(\\d+)");

    @Test
    void theMethodIsInterruptedOnceItsLockIsKnownLost() throws Exception {
        String line = run("onLost=interrupt");
        assertTrue(line.startsWith("FAILED java.lang.InterruptedException"), line);
        assertTrue(line.contains("LockLostException: lock 'hold:h1' is no longer held"), "the loss is added: " + line);
        assertTrue(line.contains("interrupted=false"), "no interrupt leaks to the caller: " + line);
        long after = after(line);
        assertTrue(after < 4000, "interrupted at the next refresh (ttl/3 = 1 s), not at the end of the sleep: " + line);
    }

    @Test
    void withOnLostLogTheMethodRunsToTheEnd() throws Exception {
        String line = run("onLost=log");
        assertTrue(line.startsWith("RETURNED held h1"), line);
        assertTrue(after(line) >= SLEEP_MILLIS, line);
    }

    @Test
    void aForceReleaseInterruptsTheMethodAtOnce() throws Exception {
        Path config = config("forced.conf", "com.acme.legacy.Guarded#hold key=\"hold:{0}\" ttl=30s onLost=interrupt");
        try (ChildJvm app = ChildJvm.startMain(
                        "com.acme.legacy.GuardedApp",
                        List.of(ChildJvm.javaagent(config)),
                        Map.of(),
                        "hold",
                        String.valueOf(SLEEP_MILLIS));
                LockManager operator = LockManager.builder()
                        .redis(redis.uri())
                        .application("dashboard")
                        .shutdownHook(false)
                        .build()) {
            app.awaitLine("HOLDING h1", RUN);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            // the holder's manager subscribes to the force-release channel once, on its own connection
            while (!redis.node(0)
                    .command("PUBSUB", "NUMSUB", "lock:force-released")
                    .endsWith("1")) {
                assertTrue(System.nanoTime() < deadline, "the agent's manager never subscribed: " + app);
                Thread.sleep(10);
            }
            long forced = System.nanoTime();
            assertTrue(operator.inspector().forceRelease("hold:h1", "alice").released());
            String line = app.awaitLine("FAILED", Duration.ofSeconds(5));
            long toldMs = (System.nanoTime() - forced) / 1_000_000;
            assertEquals(0, app.waitFor(RUN), app.toString());
            System.out.println("force-release to the interrupted method's return: " + toldMs + " ms; " + line);
            assertTrue(line.startsWith("FAILED java.lang.InterruptedException"), line);
            assertTrue(line.contains("force-released by operator 'alice'"), "the reason is passed on: " + line);
            assertTrue(line.contains("interrupted=false"), line);
            assertTrue(toldMs < 2000, "not interrupted at once (the next refresh is 10 s away): " + toldMs + " ms");
            assertTrue(after(line) < SLEEP_MILLIS, line);
        }
    }

    private String run(String onLost) throws Exception {
        Path config = config("lost.conf", "com.acme.legacy.Guarded#hold key=\"hold:{0}\" ttl=3s " + onLost);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config)),
                Map.of(),
                "hold",
                String.valueOf(SLEEP_MILLIS))) {
            app.awaitLine("HOLDING h1", RUN);
            assertEquals("1", redis.node(0).command("EXISTS", "lock:{hold:h1}"), "the method runs under its lock");
            assertEquals("1", redis.node(0).command("DEL", "lock:{hold:h1}"));
            assertEquals(0, app.waitFor(RUN), app.toString());
            boolean interrupt = onLost.equals("onLost=interrupt");
            assertEquals(!interrupt, app.stdout().contains("SLEPT FULL"), app.toString());
            return app.awaitLine(interrupt ? "FAILED" : "RETURNED", Duration.ofSeconds(1));
        }
    }

    private static long after(String line) {
        Matcher m = AFTER.matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1));
    }
}
