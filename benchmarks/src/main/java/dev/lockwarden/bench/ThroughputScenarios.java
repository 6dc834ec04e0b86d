package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Scenarios 1-3: cycles on distinct keys with 1 and 16 threads, and 16 threads fighting for one
 * key without waiting (with a mutual-exclusion check). Contenders run in interleaved rounds
 * (A B C A B C) so a burst of outside load hits them all alike.
 */
final class ThroughputScenarios {
    /** Pseudo-entry in a command delta: the client process CPU spent in the slice. */
    private static final String CLIENT_CPU_NANOS = "client-cpu" + RedisStats.USEC;

    private ThroughputScenarios() {}

    static void distinctKeys(Bench b, List<Contender> all, List<Contender> ok, int threads, String scenario)
            throws InterruptedException {
        Map<Contender, Map<String, Long>> commands = new LinkedHashMap<>();
        Map<Contender, LoadRunner.Result> res = measure(b, ok, threads, scenario, commands, c -> {
            String prefix = "s" + scenario + ":" + Integer.toHexString(System.identityHashCode(c)) + ":";
            return (t, i) -> c.cycle(prefix + t + ":" + i);
        });
        double base = rate(res, snippet(ok));
        double fenced = rate(res, fencingLock(ok));
        RedisLimit.Result lim = threads == 1 ? b.limit1 : b.limit16;
        double limit = lim == null ? 0 : lim.cycles();
        Table t = new Table(
                "contender",
                "cycles/s",
                "p50 µs",
                "p99 µs",
                "p99.9 µs",
                "× FencingLock",
                "× snippet",
                "× Redis limit",
                "commands sent / cycle",
                "all commands / cycle",
                "Redis command time µs / cycle",
                "Redis process CPU µs / cycle",
                "client CPU µs / cycle",
                "errors");
        for (Contender c : all) {
            LoadRunner.Result r = res.get(c);
            if (r == null) {
                t.unavailable(c.name(), b.whyUnavailable(c) != null ? b.whyUnavailable(c) : "skipped (time budget)");
                continue;
            }
            double cps = r.successesPerSecond();
            Map<String, Long> d = commands.getOrDefault(c, Map.of());
            double n = Math.max(1, r.successes());
            Bench.progress("scenario " + scenario + ": " + c.name() + " Redis commands over " + r.successes()
                    + " cycles: " + new java.util.TreeMap<>(d));
            t.row(
                    c.name(),
                    Table.num(cps),
                    Table.num(r.micros(50)),
                    Table.num(r.micros(99)),
                    Table.num(r.micros(99.9)),
                    Table.ratio(cps, fenced),
                    Table.ratio(cps, base),
                    Table.ratio(cps, limit),
                    Table.num(RedisStats.clientSent(d, c.plainCommands()) / n),
                    Table.num(RedisStats.total(d) / n),
                    Table.num(RedisStats.usec(d, c.plainCommands()) / n),
                    Table.num(d.getOrDefault(RedisStats.PROCESS_CPU, 0L) / n),
                    Table.num(d.getOrDefault(CLIENT_CPU_NANOS, 0L) / 1000.0 / n),
                    errors(r));
        }
        if (lim != null) {
            t.row(
                    "Redis limit: redis-benchmark -c " + threads + " SET+GET (2 round trips)",
                    Table.num(limit),
                    "",
                    "",
                    "",
                    Table.ratio(limit, fenced),
                    Table.ratio(limit, base),
                    "1.00×",
                    "");
        }
        String title = threads == 1
                ? "Scenario 1 — one thread, distinct keys"
                : "Scenario 2 — " + threads + " threads, distinct keys";
        Contender lockwarden = lockwardenSingle(ok);
        String lead = lockwarden == null
                ? ""
                : "Lockwarden (single node) × FencingLock: **" + Table.ratio(rate(res, lockwarden), fenced)
                        + "** (× snippet " + Table.ratio(rate(res, lockwarden), base) + ").\n\n";
        b.section(title, lead + t.markdown());
    }

    private static Contender lockwardenSingle(List<Contender> ok) {
        for (Contender c : ok) {
            if (c.name().equals("Lockwarden (single node)")) {
                return c;
            }
        }
        return null;
    }

    static void oneKeyNonBlocking(Bench b, List<Contender> all, List<Contender> ok, int threads)
            throws InterruptedException {
        Map<Contender, LongAdder> overlaps = new LinkedHashMap<>();
        Map<Contender, LoadRunner.Result> res = measure(b, ok, threads, "3", new LinkedHashMap<>(), c -> {
            String key = "s3:" + Integer.toHexString(System.identityHashCode(c));
            AtomicInteger inside = new AtomicInteger();
            LongAdder overlap = overlaps.computeIfAbsent(c, x -> new LongAdder());
            Runnable body = () -> {
                if (inside.incrementAndGet() != 1) {
                    overlap.increment();
                }
                long until = System.nanoTime() + 10_000; // 10 µs of "work" widens the overlap window
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                inside.decrementAndGet();
            };
            return (t, i) -> c.cycle(key, body);
        });
        double base = rate(res, snippet(ok));
        double fenced = rate(res, fencingLock(ok));
        Table t = new Table(
                "contender",
                "acquisitions/s",
                "attempts/s",
                "overlaps (must be 0)",
                "× FencingLock",
                "× snippet",
                "errors");
        for (Contender c : all) {
            LoadRunner.Result r = res.get(c);
            if (r == null) {
                t.unavailable(c.name(), b.whyUnavailable(c) != null ? b.whyUnavailable(c) : "skipped (time budget)");
                continue;
            }
            t.row(
                    c.name(),
                    Table.num(r.successesPerSecond()),
                    Table.num(r.attemptsPerSecond()),
                    overlaps.get(c).sum(),
                    Table.ratio(r.successesPerSecond(), fenced),
                    Table.ratio(r.successesPerSecond(), base),
                    errors(r));
        }
        b.section("Scenario 3 — " + threads + " threads, one key, non-blocking", t.markdown());
    }

    /** Warm-up per contender, then interleaved measuring rounds. */
    private static Map<Contender, LoadRunner.Result> measure(
            Bench b,
            List<Contender> ok,
            int threads,
            String scenario,
            Map<Contender, Map<String, Long>> commands,
            java.util.function.Function<Contender, LoadRunner.Op> ops)
            throws InterruptedException {
        Map<Contender, LoadRunner.Op> opOf = new LinkedHashMap<>();
        for (Contender c : ok) {
            opOf.put(c, ops.apply(c));
        }
        Map<Contender, LoadRunner.Result> res = new LinkedHashMap<>();
        List<Contender> order = new ArrayList<>(ok);
        for (Contender c : order) {
            if (b.outOfTime()) {
                break;
            }
            Bench.progress("scenario " + scenario + ": warm-up " + c.name());
            LoadRunner.run("warmup", threads, b.config.warmup(), b.config.maxOpsPerThread(), opOf.get(c));
        }
        for (int round = 0; round < b.config.rounds() && !b.outOfTime(); round++) {
            for (Contender c : order) {
                Bench.progress("scenario " + scenario + ": round " + (round + 1) + " " + c.name());
                Map<String, Long> before = RedisStats.snapshot(b.allPorts());
                long cpu0 = WatchdogScenario.processCpu();
                LoadRunner.Result r = LoadRunner.run(
                        "s" + scenario, threads, b.measureSlice(), b.config.maxOpsPerThread(), opOf.get(c));
                long cpu = WatchdogScenario.processCpu() - cpu0;
                Map<String, Long> delta = RedisStats.delta(before, RedisStats.snapshot(b.allPorts()));
                delta.put(CLIENT_CPU_NANOS, cpu);
                res.merge(c, r, LoadRunner.Result::plus);
                delta.forEach((k, v) -> commands.computeIfAbsent(c, x -> new java.util.HashMap<>())
                        .merge(k, v, Long::sum));
            }
        }
        return res;
    }

    static Contender snippet(List<Contender> ok) {
        for (Contender c : ok) {
            if (c instanceof SnippetContender) {
                return c;
            }
        }
        return null;
    }

    static Contender fencingLock(List<Contender> ok) {
        for (Contender c : ok) {
            if (c instanceof FencingLockContender) {
                return c;
            }
        }
        return null;
    }

    /** Successes per second of {@code c} in {@code res}, 0 if it did not run. */
    static double rate(Map<Contender, LoadRunner.Result> res, Contender c) {
        return c != null && res.get(c) != null ? res.get(c).successesPerSecond() : 0;
    }

    static String errors(LoadRunner.Result r) {
        return r.errors() == 0 ? "0" : r.errors() + " (" + r.firstError() + ")";
    }
}
