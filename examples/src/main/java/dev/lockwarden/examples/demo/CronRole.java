package dev.lockwarden.examples.demo;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.cron.ClusterCron;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** The "nightly-report" job scheduled every 10 s on every cron worker; runs on one of them per period. */
final class CronRole implements Role {
    private static final Duration PERIOD = Duration.ofSeconds(10);
    private static final int TICKS = 360; // one hour, then the schedule ends
    private final ClusterCron cron;
    private final String server;

    CronRole(LockManager locks, String server) {
        this.server = server;
        this.cron = new ClusterCron(locks, server, "nightly-report", PERIOD, Duration.ofSeconds(8));
    }

    @Override
    public void run(Console out) throws Exception {
        long skewMillis = ThreadLocalRandom.current().nextInt(1500); // clocks a little apart
        cron.schedule(
                (who, tick) -> out.say("cron: nightly-report period " + (tick + 1) + " ran here (this clock is "
                        + skewMillis + " ms late; the other instances skipped it)"),
                Duration.ofMillis(skewMillis),
                PERIOD,
                TICKS);
        cron.awaitDone(PERIOD.multipliedBy(TICKS + 1));
    }

    @Override
    public void close() {
        cron.close();
    }

    @Override
    public String toString() {
        return "cron on " + server;
    }
}
