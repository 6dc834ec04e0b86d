package dev.lockwarden.stress;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.RedisClient;

/**
 * One stress JVM: {@code threads} threads each run {@code iterations} critical sections that do a
 * deliberately non-atomic read-modify-write of a counter in a separate "data" Redis (GET, then SET
 * from Java), so any overlap loses updates. An {@code inside} counter measures the overlap seen, and
 * the fencing token of each section is checked against the last one written (must increase).
 * The lock topology comes from {@code lockwarden.*} system properties, the way an application gets it.
 * <p>
 * Args: {@code dataUri lockName threads iterations useLock(true|false) maxSeconds}.
 * Prints one line: {@code RESULT sections=.. maxOverlap=.. fenceViolations=.. errors=..}.
 */
public final class StressWorker {
    static final String COUNTER = "stress:counter";
    static final String LAST_FENCE = "stress:lastFence";
    static final String INSIDE = "stress:inside";

    public static void main(String[] args) throws Exception {
        String dataUri = args[0];
        String lockName = args[1];
        int threads = Integer.parseInt(args[2]);
        int iterations = Integer.parseInt(args[3]);
        boolean useLock = Boolean.parseBoolean(args[4]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[5]));
        AtomicLong sections = new AtomicLong();
        AtomicLong maxOverlap = new AtomicLong();
        AtomicLong fenceViolations = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        LockOptions opts = LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofSeconds(30));
        try (RedisClient data = RedisClient.create(java.net.URI.create(dataUri));
                LockManager locks =
                        useLock ? LockManager.builder().application("stress").build() : null) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(
                        () -> {
                            for (int i = 0; i < iterations && System.nanoTime() < deadline; i++) {
                                try {
                                    section(data, locks, lockName, opts, maxOverlap, fenceViolations);
                                    sections.incrementAndGet();
                                } catch (RuntimeException e) {
                                    if (errors.incrementAndGet() <= 5) {
                                        System.err.println("section failed: " + e);
                                    }
                                }
                            }
                        },
                        "stress-" + t);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
        }
        System.out.println("RESULT sections=" + sections + " maxOverlap=" + maxOverlap + " fenceViolations="
                + fenceViolations + " errors=" + errors);
        System.exit(0);
    }

    private static void section(
            RedisClient data,
            LockManager locks,
            String name,
            LockOptions opts,
            AtomicLong maxOverlap,
            AtomicLong fenceViolations) {
        LockHandle lock = locks == null ? null : locks.acquire(name, opts);
        try {
            long inside = data.incr(INSIDE);
            maxOverlap.accumulateAndGet(inside, Math::max);
            List<String> v = data.mget(COUNTER, LAST_FENCE);
            long counter = v.get(0) == null ? 0 : Long.parseLong(v.get(0));
            long lastFence = v.get(1) == null ? 0 : Long.parseLong(v.get(1));
            long fence = lock == null ? lastFence : lock.fencingToken();
            if (lock != null && fence <= lastFence) {
                fenceViolations.incrementAndGet();
            }
            data.mset(COUNTER, Long.toString(counter + 1), LAST_FENCE, Long.toString(Math.max(fence, lastFence)));
            data.decr(INSIDE);
        } finally {
            if (lock != null) {
                lock.release();
            }
        }
    }
}
