package dev.lockwarden.shedlock;

import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's view of one Lockwarden handle. ShedLock's {@link AbstractSimpleLock} makes an unlocked or
 * extended lock refuse further use ({@link IllegalStateException}); unlock and extend are token-checked
 * by the handle, so they never touch a lock another holder took after this one expired.
 */
final class LockwardenSimpleLock extends AbstractSimpleLock {
    private final HeldJob job;
    private final HeldJobs registry;

    LockwardenSimpleLock(LockConfiguration config, HeldJob job, HeldJobs registry) {
        super(config);
        this.job = job;
        this.registry = registry;
    }

    @Override
    protected void doUnlock() {
        registry.ended(job);
        job.handle.release(); // keeps the lock until lockAtLeastUntil when that is still ahead
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration next) {
        JobTimes times = JobTimes.of(next);
        if (job.ended() || !job.handle.extend(times.ttl(), times.holdAtLeast())) {
            registry.ended(job);
            return Optional.empty();
        }
        return Optional.of(new LockwardenSimpleLock(next, job, registry));
    }

    @Override
    public String toString() {
        return "LockwardenSimpleLock[" + lockConfiguration.getName() + ", " + job.handle + "]";
    }
}
