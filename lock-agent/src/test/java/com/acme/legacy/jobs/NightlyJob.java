package com.acme.legacy.jobs;

import com.acme.legacy.LockProbe;

/** Matched by {@code com.acme.legacy.jobs.*Job#run*}. */
public class NightlyJob {
    public void run() {
        LockProbe.print("NightlyJob.run", "job:NightlyJob:run");
    }

    public void runOnce() {
        LockProbe.print("NightlyJob.runOnce", "job:NightlyJob:runOnce");
    }

    public void cleanup() {
        LockProbe.print("NightlyJob.cleanup", "job:NightlyJob:cleanup");
    }
}
