package dev.lockwarden.shedlock;

import dev.lockwarden.LockManager;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.RedisClient;

/**
 * A child JVM of {@link ShedLockFuzz#jvms}: args {@code dataUri threads iterations useLock}; the lock
 * topology comes from the {@code lockwarden.*} system properties. Prints {@code RESULT done=N}.
 */
public final class ShedLockFuzzWorker {
    static final String COUNTER = "shedlock-fuzz:counter";

    private ShedLockFuzzWorker() {}

    public static void main(String[] args) throws Exception {
        String dataUri = args[0];
        int threads = Integer.parseInt(args[1]);
        int iterations = Integer.parseInt(args[2]);
        boolean useLock = Boolean.parseBoolean(args[3]);
        long deadline = System.nanoTime() + ShedLockFuzz.BOUND.toNanos();
        try (LockManager locks =
                        LockManager.builder().application("shedlock-fuzz").build();
                RedisClient data = RedisClient.create(URI.create(dataUri))) {
            LockwardenLockProvider provider = new LockwardenLockProvider(locks);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    ShedLockFuzz.count(
                            provider,
                            "fuzz",
                            iterations,
                            useLock,
                            deadline,
                            () -> {
                                String v = data.get(COUNTER);
                                return v == null ? 0 : Integer.parseInt(v);
                            },
                            v -> data.set(COUNTER, Integer.toString(v)));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(ShedLockFuzz.BOUND.toSeconds() + 5, TimeUnit.SECONDS);
            }
            pool.shutdown();
            System.out.println("RESULT done=" + threads * iterations);
        }
        System.exit(0);
    }
}
