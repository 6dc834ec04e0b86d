package dev.lockwarden.shedlock;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.LockStoreException;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link ExtensibleLockProvider} over a Lockwarden {@link LockManager} (single node, Redlock
 * or Cluster): replace your ShedLock {@code LockProvider} bean with this one and every
 * {@code @SchedulerLock} job gets a fencing token, holder info and the dashboard, unchanged otherwise.
 *
 * <pre>{@code
 * @Bean
 * LockProvider lockProvider(LockManager locks) {
 *     return new LockwardenLockProvider(locks);
 * }
 * }</pre>
 * <p>
 * ShedLock's semantics: {@link #lock} never waits and is empty while the lock is held, by anyone,
 * this thread included (not reentrant); {@code lockAtMostFor} is the TTL, with no watchdog;
 * {@code lockAtLeastFor} keeps the lock after an early unlock ({@link LockOptions#holdAtLeast});
 * unlock and extend are token-checked. A Redis failure is a {@link LockStoreException}, never an
 * empty result, so the job does not run. Lock names Lockwarden does not accept as they are (braces,
 * control characters, {@code %}, blank, longer than 512 bytes) are mapped: {@link #lockNameOf(String)}.
 */
public final class LockwardenLockProvider implements ExtensibleLockProvider {
    private final LockManager locks;
    private final HeldJobs held;

    /**
     * @param locks the manager whose locks the jobs take (the provider does not close it)
     */
    public LockwardenLockProvider(LockManager locks) {
        this.locks = Objects.requireNonNull(
                locks, "LockwardenLockProvider needs a LockManager: pass LockManager.builder()...build()");
        this.held = HeldJobs.of(locks);
    }

    /**
     * One attempt, no waiting.
     *
     * @param config the job's lock: name, lockAtMostFor, lockAtLeastFor
     * @return the lock, or empty when it is held (also by this very thread)
     * @throws LockStoreException       Redis unreachable (the job must not run)
     * @throws IllegalArgumentException lockAtMostFor is over or longer than 1 day
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        Objects.requireNonNull(config, "lock configuration");
        String name = ShedLockNames.lockName(config.getName());
        JobTimes times = JobTimes.of(config);
        if (held.held(name)) {
            return Optional.empty(); // ours already: Lockwarden's per-thread reentrancy must not hand it out again
        }
        LockOptions options = LockOptions.ttl(times.ttl())
                .autoRefresh(false) // ShedLock's contract: lockAtMostFor bounds the job, nothing renews it
                .holdAtLeast(times.holdAtLeast())
                .source(LockSource.SHEDLOCK, ShedLockNames.shown(config.getName()));
        Optional<LockHandle> handle = locks.tryAcquire(name, options);
        if (handle.isEmpty()) {
            return Optional.empty();
        }
        HeldJob job = new HeldJob(handle.get(), config.getName());
        held.started(job);
        return Optional.of(new LockwardenSimpleLock(config, job, held));
    }

    /**
     * The Lockwarden lock name a ShedLock lock name maps to: the same name, except that braces, control
     * characters, {@code %} and the characters of a blank name are percent-encoded (UTF-8), and a name
     * still over 512 bytes keeps its first 440 bytes followed by {@code ~} and the SHA-256 (hex) of the
     * ShedLock name. Distinct ShedLock names never share a lock.
     *
     * @param shedLockName the name in {@code @SchedulerLock(name = ...)}
     * @return the name shown on the dashboard and used in Redis
     */
    public static String lockNameOf(String shedLockName) {
        Objects.requireNonNull(shedLockName, "shedLockName");
        if (shedLockName.isEmpty()) {
            throw new IllegalArgumentException("ShedLock lock names are never empty");
        }
        return ShedLockNames.lockName(shedLockName);
    }

    /**
     * The lock of the ShedLock job running on this thread (the innermost, if jobs nest), taken through a
     * {@code LockwardenLockProvider}: its fence, whether it is still held, its remaining TTL.
     *
     * @return the job's lock
     * @throws IllegalStateException outside such a job (or after its unlock)
     */
    public static JobLock currentLock() {
        HeldJob job = HeldJobs.current();
        if (job == null) {
            throw new IllegalStateException(
                    "no ShedLock job holds a Lockwarden lock on this thread: call this inside a"
                            + " @SchedulerLock method (or LockingTaskExecutor task) whose LockProvider is a LockwardenLockProvider");
        }
        return job;
    }

    /**
     * Shorthand for {@code currentLock().fencingToken()}: pass it with every write the job makes, so
     * storage rejects a job that overran its {@code lockAtMostFor} after another took over.
     *
     * @return the fencing token of the running job's lock
     * @throws IllegalStateException outside such a job
     */
    public static long currentFence() {
        return currentLock().fencingToken();
    }

    @Override
    public String toString() {
        return "LockwardenLockProvider[" + locks.describeRedis() + "]";
    }
}
