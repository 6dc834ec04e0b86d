package dev.lockwarden.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs every scenario for every contender against throw-away {@code redis-server}s on loopback,
 * prints the Markdown tables and writes them into {@code docs/benchmarks.md}. See that page for
 * how to run it and how to read the numbers.
 */
public final class BenchmarkMain {
    private BenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        BenchConfig cfg = BenchConfig.fromSystem();
        String table = run(cfg);
        if (!Boolean.getBoolean("bench.no-doc")) {
            DocWriter.write(cfg.out(), table);
            Bench.progress("wrote " + cfg.out().toAbsolutePath());
        }
        System.exit(0); // client libraries leave non-daemon threads behind
    }

    /** Runs the whole table; returns its Markdown. */
    static String run(BenchConfig cfg) throws Exception {
        long started = System.nanoTime();
        try (RedisServers servers = new RedisServers(cfg.redisServer())) {
            int single = servers.start();
            List<Integer> redlock = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                redlock.add(servers.start());
            }
            Bench b = new Bench(cfg, single, redlock);
            b.note(header(cfg, servers.binary()));
            b.note(Pools.describe(cfg.threads()));
            double loadAtStart = loadAverage();
            List<Contender> all = List.of(
                    new LockwardenContender("Lockwarden (single node)", List.of(single)),
                    new LockwardenContender("Lockwarden Redlock (5 nodes)", redlock),
                    new RedissonContender(single),
                    new FencingLockContender(single),
                    new ShedLockContender(single),
                    new SnippetContender(List.of(single), SnippetContender.Mode.SINGLE));
            List<Contender> diag = List.of(
                    new LockwardenContender(
                            "diagnostic: Lockwarden, autoRefresh(false)",
                            List.of(single),
                            dev.lockwarden.LockOptions.ttl(java.time.Duration.ofSeconds(30))
                                    .autoRefresh(false)),
                    new StoreOnlyContender(single));
            List<Contender> ok = b.setUp(all);
            List<Contender> okDiag = b.setUp(diag);
            List<Contender> allAndDiag = concat(all, diag);
            List<Contender> okAndDiag = concat(ok, okDiag);
            try {
                limits(b);
                if (cfg.runs(1) && !b.outOfTime()) {
                    ThroughputScenarios.distinctKeys(b, allAndDiag, okAndDiag, 1, "1");
                    RedisStats.flushAll(single);
                }
                if (cfg.runs(2) && !b.outOfTime()) {
                    ThroughputScenarios.distinctKeys(b, allAndDiag, okAndDiag, cfg.threads(), "2");
                    RedisStats.flushAll(single);
                }
                if (cfg.runs(3) && !b.outOfTime()) {
                    ThroughputScenarios.oneKeyNonBlocking(b, all, ok, cfg.threads());
                }
                if (cfg.runs(4) && !b.outOfTime()) {
                    HandoffScenario.run(b, all, ok, cfg.contendedThreads());
                }
                if (cfg.runs(5) && !b.outOfTime()) {
                    RedlockScenario.run(b, singleNodeForRedlock(all, single));
                }
            } finally {
                okAndDiag.forEach(Bench::safeTearDown);
            }
            RedisStats.flushAll(single);
            if (cfg.runs(6) && !b.outOfTime()) {
                WatchdogScenario.run(b);
            }
            if (cfg.runs(7) && !b.outOfTime()) {
                ListingScenario.run(b);
            }
            if (cfg.runs(8) && !b.outOfTime()) {
                ReplicaAckScenario.run(b, servers);
            }
            if (b.outOfTime()) {
                b.note("**The time budget (" + cfg.budget() + ") ran out: later parts were skipped.**");
            }
            b.note(String.format(
                    Locale.ROOT,
                    "Whole run: %.0f s. Machine load (1-minute load average, %d CPUs): %.1f at the start, %.1f at the"
                            + " end; above the CPU count other processes competed with the run for the cores.",
                    (System.nanoTime() - started) / 1e9,
                    Runtime.getRuntime().availableProcessors(),
                    loadAtStart,
                    loadAverage()));
            return b.report();
        }
    }

    /** The system's 1-minute load average (what {@code uptime} prints first), or -1 where the OS has none. */
    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static List<Contender> concat(List<Contender> a, List<Contender> b) {
        List<Contender> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    /** Scenario 5 reuses the single-node contenders (already set up) next to the 5-node ones. */
    private static List<Contender> singleNodeForRedlock(List<Contender> all, int single) {
        List<Contender> l = new ArrayList<>();
        for (Contender c : all) {
            if (c instanceof SnippetContender || c instanceof LockwardenContender || c instanceof RedissonContender) {
                // the diagnostic contenders are not in this list
                l.add(c);
            }
        }
        return l;
    }

    /** The Redis limit rows, when redis-benchmark is installed; otherwise a note saying how to get them. */
    static void limits(Bench b) throws Exception {
        java.util.Optional<java.nio.file.Path> tool = RedisLimit.locate(b.config.redisBenchmark());
        if (tool.isEmpty()) {
            Bench.progress("redis-benchmark not found: the Redis limit rows are left out");
            b.note(RedisLimit.MISSING);
            return;
        }
        String binary = tool.get().toString();
        int n = b.config.quick() ? 5_000 : 50_000;
        Bench.progress("Redis limit: redis-benchmark -c 1 and -c " + b.config.threads());
        b.limit1 = RedisLimit.measure(binary, b.single, 1, n, 60);
        b.limit16 = RedisLimit.measure(binary, b.single, b.config.threads(), n * 4, 60);
        RedisStats.flushAll(b.single);
        Table t = new Table("redis-benchmark on the same server", "SET/s", "GET/s", "lock cycles/s (SET + GET)");
        t.row("-c 1", Table.num(b.limit1.setRps()), Table.num(b.limit1.getRps()), Table.num(b.limit1.cycles()));
        t.row(
                "-c " + b.config.threads(),
                Table.num(b.limit16.setRps()),
                Table.num(b.limit16.getRps()),
                Table.num(b.limit16.cycles()));
        b.section("The Redis limit", t.markdown());
    }

    private static String header(BenchConfig cfg, dev.lockwarden.testing.RedisBinary redis) {
        return String.format(
                Locale.ROOT,
                "Run of %s — %s mode (warm-up %d ms, measure %d ms in %d interleaved rounds), "
                        + "Java %s, %d CPUs, Redis from `%s` (loopback).",
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                cfg.quick() ? "quick" : "full",
                cfg.warmup().toMillis(),
                cfg.measure().toMillis(),
                cfg.rounds(),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                redis.path() + " " + redis.version() + (redis.isEmbedded() ? ", the embedded-redis fallback" : ""));
    }
}
