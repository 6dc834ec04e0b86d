package dev.lockwarden.examples.cron;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One server's scheduler for a job that every server schedules: at each tick it tries the job's
 * lock without waiting (busy = skip, like {@code onBusy = SKIP}) and runs the job if it got it. The
 * lock is kept {@code holdAtLeast} after acquisition even when the job ends in 50 ms, so a server
 * whose clock fires a little later in the same period finds it busy. Choose
 * {@code clock skew < holdAtLeast < period - clock skew}.
 */
public final class ClusterCron implements AutoCloseable {
    /** What the job is told when it runs. */
    public interface Job {
        void run(String server, int tick) throws Exception;
    }

    private final LockManager locks;
    private final String server;
    private final String lockName;
    private final LockOptions options;
    private final ScheduledExecutorService timer;

    /**
     * @param holdAtLeast minimum hold after acquisition ({@link Duration#ZERO} = release at once, the
     *                    broken set-up the test's control uses)
     */
    public ClusterCron(LockManager locks, String server, String job, Duration period, Duration holdAtLeast) {
        this.locks = locks;
        this.server = server;
        this.lockName = "cron:" + job;
        this.options = LockOptions.ttl(period).holdAtLeast(holdAtLeast);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "cron-" + server));
    }

    /**
     * Fires {@code ticks} times, every {@code period}, the first {@code firstTickIn} from now (a
     * server's clock skew). Bounded: the scheduler stops itself after the last tick.
     */
    public void schedule(Job job, Duration firstTickIn, Duration period, int ticks) {
        for (int i = 0; i < ticks; i++) {
            int tick = i;
            timer.schedule(
                    () -> fire(job, tick),
                    firstTickIn.plus(period.multipliedBy(i)).toNanos(),
                    TimeUnit.NANOSECONDS);
        }
        timer.shutdown(); // runs what is scheduled, then ends
    }

    private void fire(Job job, int tick) {
        Optional<LockHandle> lock = locks.tryAcquire(lockName, options);
        if (lock.isEmpty()) {
            return; // another server runs (or just ran) this period's job
        }
        try (LockHandle held = lock.get()) {
            job.run(server, tick);
        } catch (Exception e) {
            System.getLogger(ClusterCron.class.getName())
                    .log(System.Logger.Level.WARNING, lockName + " failed on " + server, e);
        }
    }

    /** Waits (bounded) until every scheduled tick has fired. */
    public boolean awaitDone(Duration timeout) throws InterruptedException {
        return timer.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
