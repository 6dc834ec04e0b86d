package dev.lockwarden.shedlock;

import dev.lockwarden.LockManager;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the providers of this JVM hold: per {@link LockManager}, the live job lock of each name (so a
 * second {@code lock} of a held name is empty, as ShedLock requires, instead of the manager's
 * per-thread reentrancy); and per thread, the jobs it runs (innermost last) for {@code currentLock()}.
 */
final class HeldJobs {
    /** Weak keys: a closed and dropped manager takes its entry with it. Identity keys (LockManager keeps Object's equals). */
    private static final Map<LockManager, HeldJobs> BY_MANAGER = Collections.synchronizedMap(new WeakHashMap<>());

    private static final ThreadLocal<Deque<HeldJob>> RUNNING = new ThreadLocal<>();

    private final Map<String, HeldJob> byName = new ConcurrentHashMap<>();

    static HeldJobs of(LockManager manager) {
        return BY_MANAGER.computeIfAbsent(manager, m -> new HeldJobs());
    }

    /** Whether a provider over this manager holds {@code lockName} now (known locally: never a guess that it is free). */
    boolean held(String lockName) {
        HeldJob job = byName.get(lockName);
        if (job != null && !job.isHeld()) {
            byName.remove(lockName, job); // expired or lost: Redis decides on the next attempt
            return false;
        }
        return job != null;
    }

    void started(HeldJob job) {
        byName.put(job.name(), job);
        Deque<HeldJob> running = RUNNING.get();
        if (running == null) {
            running = new ArrayDeque<>();
            RUNNING.set(running);
        }
        running.removeIf(HeldJob::ended); // ended on another thread: drop it here
        running.addLast(job);
    }

    void ended(HeldJob job) {
        job.end();
        byName.remove(job.name(), job);
        Deque<HeldJob> running = RUNNING.get();
        if (running != null) {
            running.remove(job);
            if (running.isEmpty()) {
                RUNNING.remove();
            }
        }
    }

    /** The innermost job lock taken on this thread and not yet unlocked, or null. */
    static HeldJob current() {
        Deque<HeldJob> running = RUNNING.get();
        if (running == null) {
            return null;
        }
        running.removeIf(HeldJob::ended);
        return running.peekLast();
    }
}
