package dev.lockwarden.examples.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two JVMs run the Spring app with the same {@code @Scheduled} + {@code @SchedulerLock} job against
 * one Redis: every 2-second period in which they ran has exactly one run, the fences rise from run to
 * run, and the dashboard's data (the inspector) shows the lock with source SHEDLOCK and the job name.
 */
class TwoServersRunEachPeriodOnceTest {
    private static final Pattern RAN = Pattern.compile("RAN period=(\\d+) fence=(\\d+) app=(\\S+)");
    private static final int RUN_SECONDS = 14;

    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void eachPeriodRunsOnceAndTheLockShowsOnTheDashboard() throws Exception {
        List<Process> servers = new ArrayList<>();
        List<File> logs = new ArrayList<>();
        Set<String> apps = Set.of("billing-a", "billing-b");
        try (LockManager dashboard = LockManager.builder()
                .redis(REDIS.uri())
                .application("dashboard")
                .shutdownHook(false)
                .build()) {
            for (String app : apps) {
                File log = File.createTempFile("shedlock-app-" + app + "-", ".log");
                log.deleteOnExit();
                logs.add(log);
                servers.add(new ProcessBuilder(
                                ProcessHandle.current().info().command().orElse("java"),
                                "-Xmx128m",
                                "-Dlockwarden.redis=" + REDIS.uri(),
                                "-Dlockwarden.application=" + app,
                                "-cp",
                                System.getProperty("java.class.path"),
                                ShedLockApp.class.getName(),
                                Integer.toString(RUN_SECONDS))
                        .redirectErrorStream(true)
                        .redirectOutput(log)
                        .start());
            }
            LockInfo seen = awaitLock(dashboard, Duration.ofSeconds(RUN_SECONDS));
            assertEquals(LockSource.SHEDLOCK, seen.source());
            assertEquals(ReportJob.NAME, seen.method(), "the job's name is the holder's method");
            assertTrue(apps.contains(seen.holder().application()), seen.toString());
            assertTrue(seen.fencingToken() > 0);
            for (Process p : servers) {
                assertTrue(p.waitFor(RUN_SECONDS + 30, TimeUnit.SECONDS), "the app did not stop");
            }
        } finally {
            servers.forEach(Process::destroyForcibly);
        }

        TreeMap<Long, List<String>> runs = new TreeMap<>();
        StringBuilder all = new StringBuilder();
        for (File log : logs) {
            String out = Files.readString(log.toPath(), StandardCharsets.UTF_8);
            all.append(out);
            Matcher m = RAN.matcher(out);
            while (m.find()) {
                runs.computeIfAbsent(Long.parseLong(m.group(1)), k -> new ArrayList<>())
                        .add(m.group(2) + "@" + m.group(3));
            }
        }
        assertTrue(
                all.toString().contains("READY billing-a") && all.toString().contains("READY billing-b"),
                all.toString());
        assertTrue(runs.size() >= 3, "too few periods ran: " + runs + "\n" + all);
        long previousFence = 0;
        for (long period = runs.firstKey(); period <= runs.lastKey(); period++) {
            List<String> ran = runs.get(period);
            assertTrue(
                    ran != null && ran.size() == 1, "period " + period + " ran " + ran + " (expected once): " + runs);
            long fence = Long.parseLong(ran.get(0).substring(0, ran.get(0).indexOf('@')));
            assertTrue(fence > previousFence, "fences rise: " + runs);
            previousFence = fence;
        }
        System.out.println("runs by period: " + runs);
    }

    /** Polls the inspector, as the dashboard does, until the job's lock is held. */
    private static LockInfo awaitLock(LockManager dashboard, Duration bound) throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < end) {
            Optional<LockInfo> info = dashboard.inspector().get(ReportJob.NAME);
            if (info.isPresent()) {
                return info.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the job's lock never showed in the inspector within " + bound);
    }
}
