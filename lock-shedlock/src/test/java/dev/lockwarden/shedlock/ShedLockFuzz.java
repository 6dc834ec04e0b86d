package dev.lockwarden.shedlock;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import redis.clients.jedis.RedisClient;

/**
 * ShedLock's fuzz test, ours: threads (or JVMs) increment a shared counter by read, sleep 1 ms, write,
 * each only while holding the job's lock; every increment counts exactly once, so the total is exact.
 * Without the lock the same loop loses updates (the control). Bounded in iterations and time.
 */
final class ShedLockFuzz {
    static final Duration BOUND = Duration.ofSeconds(90);

    private ShedLockFuzz() {}

    /** @param job1 lock1's counter, @param job2 lock2's counter */
    record Totals(int job1, int job2) {}

    /** Each job is counted by half of the threads, {@code iterations} times each. */
    static int expected(int threads, int iterations) {
        return threads / 2 * iterations;
    }

    static Totals threads(LockProvider provider, int threads, int iterations, boolean useLock) throws Exception {
        int[][] counters = new int[2][1]; // plain ints on purpose: only the lock orders the accesses
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long deadline = System.nanoTime() + BOUND.toNanos();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int job = t % 2;
                done.add(pool.submit(() -> {
                    count(
                            provider,
                            "lock" + (job + 1),
                            iterations,
                            useLock,
                            deadline,
                            () -> counters[job][0],
                            v -> counters[job][0] = v);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(BOUND.toSeconds() + 10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return new Totals(counters[0][0], counters[1][0]);
    }

    interface Counter {
        int get() throws Exception;
    }

    interface Setter {
        void set(int v) throws Exception;
    }

    /** One worker: {@code iterations} increments, each under the lock when {@code useLock}. */
    static void count(
            LockProvider provider, String name, int iterations, boolean useLock, long deadline, Counter get, Setter set)
            throws Exception {
        LockConfiguration config =
                new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ofMillis(5));
        for (int i = 0; i < iterations; ) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + ": " + i + " of " + iterations + " increments within " + BOUND);
            }
            SimpleLock lock = null;
            if (useLock) {
                config = new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ofMillis(5));
                lock = provider.lock(config).orElse(null);
                if (lock == null) {
                    Thread.sleep(1); // busy: try again, like a scheduler's next tick
                    continue;
                }
            }
            int n = get.get();
            Thread.sleep(1);
            set.set(n + 1);
            if (lock != null) {
                lock.unlock();
            }
            i++;
        }
    }

    /**
     * {@code jvms} child JVMs, each with {@code threads} threads counting {@code iterations} times on one
     * counter in the data Redis; returns that counter.
     */
    static long jvms(
            Map<String, String> settings, String dataUri, int jvms, int threads, int iterations, boolean useLock)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> processes = new ArrayList<>();
        List<File> outputs = new ArrayList<>();
        try {
            for (int j = 0; j < jvms; j++) {
                List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1"));
                settings.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
                cmd.addAll(List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        ShedLockFuzzWorker.class.getName(),
                        dataUri,
                        Integer.toString(threads),
                        Integer.toString(iterations),
                        Boolean.toString(useLock)));
                File out = File.createTempFile("shedlock-fuzz-" + j + "-", ".log");
                out.deleteOnExit();
                outputs.add(out);
                processes.add(new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(out)
                        .start());
            }
            for (int j = 0; j < jvms; j++) {
                Process p = processes.get(j);
                boolean ended = p.waitFor(BOUND.toSeconds() + 30, TimeUnit.SECONDS);
                String log = Files.readString(outputs.get(j).toPath(), StandardCharsets.UTF_8);
                if (!ended || p.exitValue() != 0 || !log.contains("RESULT done=" + threads * iterations)) {
                    throw new AssertionError(
                            "fuzz JVM " + j + (ended ? " exited " + p.exitValue() : " did not finish") + ":\n" + log);
                }
            }
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
        try (RedisClient data = RedisClient.create(URI.create(dataUri))) {
            String v = data.get(ShedLockFuzzWorker.COUNTER);
            return v == null ? 0 : Long.parseLong(v);
        }
    }
}
