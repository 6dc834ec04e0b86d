package com.acme.legacy.jobs;

import com.acme.legacy.LockProbe;

/** Matched by {@code com.acme.legacy.jobs.*Job#run*}. */
public class WeeklyJob {
    public void run() {
        LockProbe.print("WeeklyJob.run", "job:WeeklyJob:run");
    }
}
