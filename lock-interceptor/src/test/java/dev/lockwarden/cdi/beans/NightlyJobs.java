package dev.lockwarden.cdi.beans;

import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.enterprise.context.ApplicationScoped;

/** A type-level @Locked: every business method takes the same constant lock unless it has its own. */
@ApplicationScoped
@Locked(value = "jobs:nightly", onBusy = OnBusy.SKIP)
public class NightlyJobs {

    public String report() {
        return Locks.current().name();
    }

    @Locked("jobs:{0}")
    public String named(String job) {
        return Locks.current().name();
    }
}
