package dev.lockwarden.cdi.beans;

import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** A type-level @Locked: every business method takes the same constant lock unless it has its own. */
@ApplicationScoped
@Locked(value = "jobs:nightly", onBusy = OnBusy.SKIP)
public class NightlyJobs {

    public Optional<String> report() {
        return Optional.of(Locks.current().name());
    }

    @Locked("jobs:{0}")
    public Optional<String> named(String job) {
        return Optional.of(Locks.current().name());
    }
}
