package dev.lockwarden.bench;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Scenario 6: N locks held with auto-refresh for a while; what keeping them alive costs Redis
 * (refresh commands/s, from INFO commandstats) and the client (process CPU).
 */
final class WatchdogScenario {
    private WatchdogScenario() {}

    static void run(Bench b) throws InterruptedException {
        int n = b.config.watchdogLocks();
        Duration ttl = b.config.watchdogTtl();
        Duration window = b.config.watchdogWindow();
        Table t = new Table(
                "contender",
                "locks held",
                "refresh commands/s",
                "refresh batches in window",
                "expected batches (window ÷ TTL/3, 1 node)",
                "client CPU (% of one core)",
                "watchdog thread CPU ms");
        lockwarden(b, t, n, ttl, window);
        RedisStats.flushAll(b.single);
        if (!b.outOfTime()) {
            redisson(b, t, n, ttl, window);
            RedisStats.flushAll(b.single);
        }
        b.section(
                "Scenario 6 — watchdog: " + n + " held auto-refresh locks, TTL " + ttl.toMillis() + " ms, window "
                        + window.toMillis() + " ms",
                t.markdown()
                        + "\nRefresh commands = EVAL + EVALSHA calls seen by Redis during the window (each refreshes one lock "
                        + "for Lockwarden; Redisson's renewal script covers a batch of locks per call). CPU is the whole client "
                        + "process, measured while it does nothing but hold the locks.\n");
    }

    private static void lockwarden(Bench b, Table t, int n, Duration ttl, Duration window) throws InterruptedException {
        Bench.progress("scenario 6: Lockwarden takes " + n + " locks");
        LockOptions opts = LockOptions.ttl(ttl).autoRefresh(true);
        try (LockManager locks = LockwardenContender.build(List.of(b.single), "bench-watchdog")) {
            List<LockHandle> held = Holders.takeMany(
                    n, 16, 60_000, i -> locks.tryAcquire("s6:" + i, opts).orElse(null));
            long batches0 = watchdogBatches("bench-watchdog");
            Sample s = Sample.take(b.single, "lockwarden-watchdog");
            Thread.sleep(window.toMillis());
            Sample e = Sample.take(b.single, "lockwarden-watchdog");
            long batches = watchdogBatches("bench-watchdog") - batches0;
            row(t, "Lockwarden (single node)", held.size(), s, e, Long.toString(batches), ttl, window);
            long lost = held.stream().filter(h -> !h.isHeld()).count();
            if (lost > 0) {
                b.note("Lockwarden lost " + lost + " of its " + held.size() + " held locks during scenario 6.");
            }
            Holders.forEach(held, 16, 60_000, LockHandle::release);
        }
    }

    /** The refresh round trips of the one manager of {@code application} so far, from its MXBean. */
    private static long watchdogBatches(String application) {
        try {
            javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName pattern =
                    new javax.management.ObjectName("dev.lockwarden:type=LockManager,application="
                            + javax.management.ObjectName.quote(application) + ",*");
            java.util.Set<javax.management.ObjectName> names = server.queryNames(pattern, null);
            if (names.size() != 1) {
                throw new IllegalStateException(
                        "expected one LockManager MXBean of " + application + ", found " + names);
            }
            return (Long) server.getAttribute(names.iterator().next(), "WatchdogBatches");
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot read the watchdog's batches over JMX", e);
        }
    }

    private static void redisson(Bench b, Table t, int n, Duration ttl, Duration window) throws InterruptedException {
        Bench.progress("scenario 6: Redisson takes " + n + " locks");
        RedissonClient client = RedissonContender.client(b.single, ttl.toMillis());
        try {
            List<RLock> held = Holders.takeMany(n, 16, 60_000, i -> {
                RLock l = client.getLock("s6r:" + i);
                return l.tryLock() ? l : null;
            });
            Sample s = Sample.take(b.single, "redisson");
            Thread.sleep(window.toMillis());
            Sample e = Sample.take(b.single, "redisson");
            row(t, "Redisson RLock (watchdog " + ttl.toMillis() + " ms)", held.size(), s, e, "–", ttl, window);
            Holders.forEach(held, 16, 60_000, RLock::forceUnlock);
        } finally {
            client.shutdown();
        }
    }

    private static void row(
            Table t, String name, int held, Sample s, Sample e, String batches, Duration ttl, Duration window) {
        double secs = (e.wallNanos - s.wallNanos) / 1e9;
        Map<String, Long> d = RedisStats.delta(s.commands, e.commands);
        long refresh = d.getOrDefault("evalsha", 0L) + d.getOrDefault("eval", 0L);
        double cpu = (e.cpuNanos - s.cpuNanos) / (double) (e.wallNanos - s.wallNanos) * 100;
        t.row(
                name,
                held,
                Table.num(refresh / secs),
                batches,
                String.format(Locale.ROOT, "%.1f", window.toMillis() / (ttl.toMillis() / 3.0)),
                String.format(Locale.ROOT, "%.1f %%", cpu),
                Table.num((e.threadCpuNanos - s.threadCpuNanos) / 1e6));
    }

    /** Counters at one instant. */
    private record Sample(long wallNanos, long cpuNanos, long threadCpuNanos, Map<String, Long> commands) {
        static Sample take(int port, String threadPrefix) {
            Map<String, Long> c = RedisStats.snapshot(port);
            return new Sample(System.nanoTime(), processCpu(), threadCpu(threadPrefix), c);
        }
    }

    static long processCpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** CPU of the live threads whose name starts with {@code prefix}. */
    static long threadCpu(String prefix) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th.getName().startsWith(prefix)) {
                long v = mx.getThreadCpuTime(th.getId());
                sum += Math.max(0, v);
            }
        }
        return sum;
    }

    static long toMillis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
