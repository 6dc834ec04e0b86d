package dev.lockwarden.examples.cron;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.DemoRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Cron example: "the same job on 3 servers". Three servers whose clocks are 0, 200 and 400 ms
 * apart schedule a 50 ms job every second for 5 seconds; with {@code holdAtLeast = 800ms} it runs
 * once per period; without it, every server runs it every period.
 */
public final class CronApp {
    /** Clock offsets of the three servers. */
    public static final List<Duration> SKEWS = List.of(Duration.ZERO, Duration.ofMillis(200), Duration.ofMillis(400));

    public static final Duration PERIOD = Duration.ofSeconds(1);
    public static final Duration HOLD_AT_LEAST = Duration.ofMillis(800);
    public static final int TICKS = 5;

    public static void main(String[] args) throws Exception {
        try (DemoRedis redis = DemoRedis.start()) {
            System.out.println("Cron example — Redis: " + redis.describe());
            print(
                    "with holdAtLeast " + HOLD_AT_LEAST.toMillis() + " ms",
                    run(redis.uri(), "daily-notif", HOLD_AT_LEAST));
            print("without holdAtLeast (control)", run(redis.uri(), "daily-notif-control", Duration.ZERO));
        }
    }

    /** Runs the three servers; returns, per tick, the servers that ran the job. */
    public static Map<Integer, List<String>> run(String redisUri, String job, Duration holdAtLeast)
            throws InterruptedException {
        Map<Integer, List<String>> runs = new ConcurrentHashMap<>();
        List<LockManager> managers = new ArrayList<>();
        List<ClusterCron> crons = new ArrayList<>();
        try {
            for (int i = 0; i < SKEWS.size(); i++) {
                LockManager m = LockManager.builder()
                        .redis(redisUri)
                        .application("server-" + (i + 1))
                        .build();
                managers.add(m);
                crons.add(new ClusterCron(m, "server-" + (i + 1), job, PERIOD, holdAtLeast));
            }
            Duration start = Duration.ofMillis(300); // all three connected before the first tick
            for (int i = 0; i < crons.size(); i++) {
                crons.get(i)
                        .schedule(
                                (server, tick) -> {
                                    runs.computeIfAbsent(tick, t -> new CopyOnWriteArrayList<>())
                                            .add(server);
                                    Thread.sleep(50); // the job: done in 50 ms
                                },
                                start.plus(SKEWS.get(i)),
                                PERIOD,
                                TICKS);
            }
            for (ClusterCron c : crons) {
                if (!c.awaitDone(PERIOD.multipliedBy(TICKS + 5))) {
                    throw new IllegalStateException("cron ticks did not finish in time");
                }
            }
            return runs;
        } finally {
            crons.forEach(ClusterCron::close);
            managers.forEach(LockManager::close);
        }
    }

    private static void print(String title, Map<Integer, List<String>> runs) {
        System.out.println(title + ":");
        int total = 0;
        for (int tick = 0; tick < TICKS; tick++) {
            List<String> who = runs.getOrDefault(tick, List.of());
            total += who.size();
            System.out.println(
                    "  period " + (tick + 1) + ": ran on " + (who.isEmpty() ? "no server" : String.join(", ", who)));
        }
        System.out.println("  => " + total + " runs in " + TICKS + " periods");
    }

    private CronApp() {}
}
