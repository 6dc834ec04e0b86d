package dev.lockwarden.examples.shedlock;

import dev.lockwarden.shedlock.LockwardenLockProvider;
import java.time.Instant;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A job every server schedules every 2 seconds and ShedLock runs on one of them: lockAtLeastFor
 * (1.5 s) covers servers whose clocks or schedulers fire a little apart, lockAtMostFor (10 s)
 * frees the lock of a server that died mid-run.
 */
public class ReportJob {
    static final String NAME = "report-job";
    private final String application;

    ReportJob(String application) {
        this.application = application;
    }

    String application() {
        return application;
    }

    @Scheduled(cron = "*/2 * * * * *")
    @SchedulerLock(name = NAME, lockAtLeastFor = "PT1.5S", lockAtMostFor = "PT10S")
    public void run() {
        // the fence rises with every run on any server: pass it with the job's writes so storage can
        // refuse a run that overran lockAtMostFor after another server took over
        long fence = LockwardenLockProvider.currentFence();
        long period = Instant.now().getEpochSecond() / 2;
        System.out.println("RAN period=" + period + " fence=" + fence + " app=" + application);
    }
}
