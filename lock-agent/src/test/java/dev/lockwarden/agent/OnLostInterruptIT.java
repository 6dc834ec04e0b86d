package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * the same method sleeps to the end and returns.
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
