package dev.lockwarden.bench;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How long each part runs. Full mode (default) aims at ~4-5 minutes for the whole table;
 * {@code -Dbench.quick=true} runs each scenario for about a second (smoke runs, CI).
 * Every value can be overridden by its own {@code bench.*} system property. Redis comes from
 * lock-test-support ({@code redis-server} on the PATH, else the embedded one; {@code bench.redis-server}
 * names a path or {@code embedded}); {@code redis-benchmark} is optional (without it the "Redis limit"
 * rows are left out, with a note saying how to install it).
 */
record BenchConfig(
        boolean quick,
        Duration warmup,
        Duration measure,
        int rounds,
        int threads,
        int contendedThreads,
        int watchdogLocks,
        Duration watchdogTtl,
        Duration watchdogWindow,
        int listingLocks,
        long maxOpsPerThread,
        Duration budget,
        Path out,
        String redisServer,
        String redisBenchmark,
        String only) {

    static BenchConfig fromSystem() {
        boolean quick = Boolean.getBoolean("bench.quick");
        return new BenchConfig(
                quick,
                duration("bench.warmup", quick ? "300ms" : "2s"),
                duration("bench.measure", quick ? "700ms" : "4s"),
                Integer.getInteger("bench.rounds", quick ? 2 : 4),
                Integer.getInteger("bench.threads", 16),
                Integer.getInteger("bench.contended-threads", 8),
                Integer.getInteger("bench.watchdog-locks", quick ? 1_000 : 10_000),
                duration("bench.watchdog-ttl", quick ? "1500ms" : "6s"),
                duration("bench.watchdog-window", quick ? "1s" : "10s"),
                Integer.getInteger("bench.listing-locks", quick ? 5_000 : 100_000),
                Long.getLong("bench.max-ops-per-thread", 5_000_000L),
                duration("bench.budget", "9m"),
                Path.of(System.getProperty("bench.out", "docs/benchmarks.md")),
                System.getProperty("bench.redis-server", ""), // blank: lock-test-support's RedisBinary.detect()
                System.getProperty("bench.redis-benchmark", "redis-benchmark"),
                System.getProperty("bench.only", ""));
    }

    /** Whether scenario {@code n} runs ({@code -Dbench.only=1,4} runs only those). */
    boolean runs(int n) {
        if (only.isBlank()) {
            return true;
        }
        for (String s : only.split(",")) {
            if (s.trim().equals(Integer.toString(n))) {
                return true;
            }
        }
        return false;
    }

    private static Duration duration(String property, String dflt) {
        String v = System.getProperty(property, dflt).trim();
        if (v.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        if (v.endsWith("s")) {
            return Duration.ofMillis((long) (Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
        }
        if (v.endsWith("m")) {
            return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
        }
        throw new IllegalArgumentException(property + "=" + v + ": use e.g. 500ms, 4s or 2m");
    }
}
