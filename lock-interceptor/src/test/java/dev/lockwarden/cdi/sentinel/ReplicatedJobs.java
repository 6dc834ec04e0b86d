package dev.lockwarden.cdi.sentinel;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** Three ways to ask for replica acknowledgement; each body counts its runs (static: a normal-scoped bean has no public fields). */
@ApplicationScoped
public class ReplicatedJobs {
    public static final AtomicInteger plainRuns = new AtomicInteger();
    public static final AtomicInteger ackedRuns = new AtomicInteger();
    public static final AtomicInteger unackedRuns = new AtomicInteger();

    /** The LockManager's default ({@code lockwarden.replica-acks}). */
    @Locked("jobs:plain")
    public void plain() {
        plainRuns.incrementAndGet();
    }

    @Locked(value = "jobs:acked", replicaAcks = "1/200ms")
    public void acked() {
        ackedRuns.incrementAndGet();
    }

    /** Off for this method, whatever the manager's default. */
    @Locked(value = "jobs:unacked", replicaAcks = "off")
    public void unacked() {
        unackedRuns.incrementAndGet();
    }
}
