package dev.lockwarden.examples.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.examples.ExampleRun;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Three servers with skewed schedules (0 / 200 / 400 ms) run a 50 ms job every second. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CronTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @Test
    void withHoldAtLeastTheJobRunsExactlyOncePerPeriod() throws Exception {
        Map<Integer, List<String>> runs = CronApp.run(redis.uri(), "report", CronApp.HOLD_AT_LEAST);
        for (int tick = 0; tick < CronApp.TICKS; tick++) {
            assertEquals(1, runs.getOrDefault(tick, List.of()).size(), "period " + tick + ": " + runs);
        }
    }

    @Test
    void controlWithoutHoldAtLeastTheLaterServersRunItAgain() throws Exception {
        Map<Integer, List<String>> runs = CronApp.run(redis.uri(), "report-control", Duration.ZERO);
        int total = runs.values().stream().mapToInt(List::size).sum();
        assertTrue(total > CronApp.TICKS, "the 50 ms job is done before the later servers fire: " + runs);
    }

    @Test
    void theAppPrintsOneRunPerPeriod() throws Exception {
        String out = ExampleRun.main(CronApp.class, redis.uri());
        assertTrue(out.contains("with holdAtLeast 800 ms:"), out);
        assertTrue(out.contains("=> 5 runs in 5 periods"), out);
        assertTrue(out.matches("(?s).*without holdAtLeast \\(control\\):.*=> ([6-9]|1[0-5]) runs in 5 periods.*"), out);
    }
}
