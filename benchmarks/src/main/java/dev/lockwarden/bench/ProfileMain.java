package dev.lockwarden.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import redis.clients.jedis.Jedis;

/**
 * A short, bounded cost-per-cycle probe for profiling (docs/benchmarks.md, "Where the client CPU
 * goes"): one contender, distinct keys, N threads, a warm-up and a measured window on a fresh
 * {@code redis-server}. Prints cycles/s and, per cycle, client CPU, bytes allocated by the
 * worker threads, Redis CPU ({@code INFO cpu}) and Redis command time ({@code INFO commandstats}).
 * Run it under JFR to see where the CPU goes:
 * <pre>
 * java -XX:StartFlightRecording=filename=lw.jfr,settings=profile -cp benchmarks/target/lockwarden-benchmarks.jar \
 *      -Dbench.profile.contender=lockwarden -Dbench.profile.threads=1 dev.lockwarden.bench.ProfileMain
 * </pre>
 * Properties: {@code bench.profile.contender} = lockwarden | snippet | store | redlock (5 nodes; Redis figures of
 * node 0 only), {@code .threads} (1),
 * {@code .warmup} seconds (3), {@code .seconds} (8), {@code .rounds} (1: repeated windows, one line each).
 */
public final class ProfileMain {
    private ProfileMain() {
    }

    public static void main(String[] args) throws Exception {
        String which = System.getProperty("bench.profile.contender", "lockwarden");
        int threads = Integer.getInteger("bench.profile.threads", 1);
        long warmup = Long.getLong("bench.profile.warmup", 3);
        long seconds = Math.min(60, Long.getLong("bench.profile.seconds", 8));
        int rounds = Math.min(10, Integer.getInteger("bench.profile.rounds", 1));
        try (RedisServers servers = new RedisServers(System.getProperty("bench.redis-server", "redis-server"))) {
            int port = servers.start();
            Contender c = switch (which) {
                case "lockwarden" -> new LockwardenContender("Lockwarden (single node)", List.of(port));
                case "snippet" -> new SnippetContender(List.of(port), SnippetContender.Mode.SINGLE);
                case "store" -> new StoreOnlyContender(port);
                // Redlock over 5 fresh nodes; the Redis figures are then node 0's only
                case "redlock" -> new LockwardenContender("Lockwarden Redlock (5 nodes)",
                        List.of(port, servers.start(), servers.start(), servers.start(), servers.start()));
                default -> throw new IllegalArgumentException("bench.profile.contender=" + which
                        + ": use lockwarden, snippet, store or redlock");
            };
            c.setUp();
            try {
                for (int r = 0; r < rounds; r++) {
                    System.out.println(measure(c, port, threads, warmup, seconds, r));
                    warmup = 0;
                }
            } finally {
                c.tearDown();
            }
        }
        System.exit(0);
    }

    private static String measure(Contender c, int port, int threads, long warmupSeconds, long seconds, int round)
            throws Exception {
        com.sun.management.ThreadMXBean tmx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LongAdder cycles = new LongAdder();
        LongAdder errors = new LongAdder();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        CountDownLatch exit = new CountDownLatch(1);
        long[] measureFrom = new long[1];
        long[] measureTo = new long[1];
        boolean[] measuring = new boolean[threads];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                    String prefix = "p" + round + ":" + id + ":";
                    long end = measureTo[0];
                    for (long i = 0; i < 50_000_000L && System.nanoTime() - end < 0; i++) {
                        boolean counted = System.nanoTime() - measureFrom[0] >= 0;
                        try {
                            if (c.cycle(prefix + i) && counted) {
                                cycles.increment();
                            }
                        } catch (Exception e) {
                            errors.increment();
                        }
                        measuring[id] = counted;
                    }
                    done.countDown();
                    exit.await(); // stay alive until the allocation counters were read
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "profile-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        long now = System.nanoTime();
        measureFrom[0] = now + TimeUnit.SECONDS.toNanos(warmupSeconds);
        measureTo[0] = measureFrom[0] + TimeUnit.SECONDS.toNanos(seconds);
        go.countDown();
        Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(measureFrom[0] - System.nanoTime())));
        long[] ids = workers.stream().mapToLong(Thread::getId).toArray();
        long alloc0 = sum(tmx.getThreadAllocatedBytes(ids));
        long callerCpu0 = threadCpu(tmx, ids);
        long allAlloc0 = allThreadsAllocated(tmx);
        long cpu0 = WatchdogScenario.processCpu();
        Map<String, Long> cmd0 = RedisStats.snapshot(port);
        double rcpu0 = redisCpuSeconds(port);
        if (!done.await(seconds + 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("workers did not finish within 30 s of the window");
        }
        long cpu = WatchdogScenario.processCpu() - cpu0;
        double rcpu = redisCpuSeconds(port) - rcpu0;
        Map<String, Long> cmd = RedisStats.delta(cmd0, RedisStats.snapshot(port));
        long alloc = sum(tmx.getThreadAllocatedBytes(ids)) - alloc0;
        long callerCpu = threadCpu(tmx, ids) - callerCpu0;
        long allAlloc = allThreadsAllocated(tmx) - allAlloc0;
        exit.countDown();
        double n = Math.max(1, cycles.sum());
        return String.format(Locale.ROOT, "%s threads=%d window=%ds: %.0f cycles/s, client CPU %.1f µs/cycle (calling threads %.1f), "
                        + "allocated %.0f B/cycle by the callers (%.0f B/cycle by all live threads), Redis CPU %.1f µs/cycle"
                        + " (command time %.1f µs/cycle), commands sent/cycle %.2f, all commands/cycle %.2f, errors %d, commands %s",
                c.name(), threads, seconds, cycles.sum() / (double) seconds, cpu / 1000.0 / n, callerCpu / 1000.0 / n, alloc / n, allAlloc / n,
                rcpu * 1e6 / n, RedisStats.usec(cmd, c.plainCommands()) / n, RedisStats.clientSent(cmd, c.plainCommands()) / n,
                RedisStats.total(cmd) / n, errors.sum(), new java.util.TreeMap<>(cmd));
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += Math.max(0, v);
        }
        return s;
    }

    /** CPU time (ns) of the calling threads only: no JIT, GC or background threads of the contender. */
    private static long threadCpu(com.sun.management.ThreadMXBean tmx, long[] ids) {
        long s = 0;
        for (long id : ids) {
            s += Math.max(0, tmx.getThreadCpuTime(id));
        }
        return s;
    }

    private static long allThreadsAllocated(com.sun.management.ThreadMXBean tmx) {
        return sum(tmx.getThreadAllocatedBytes(tmx.getAllThreadIds()));
    }

    /** used_cpu_user + used_cpu_sys of the server process, seconds. */
    private static double redisCpuSeconds(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port, 5_000)) {
            return RedisStats.cpuSeconds(j.info("cpu"));
        }
    }
}
