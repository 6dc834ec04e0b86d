package dev.lockwarden.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Scenario 4: N threads take one key with a blocking wait. A handoff is one acquisition; its
 * latency runs from the moment the previous holder starts releasing to the moment the next holder
 * runs. Redis commands are counted on the server (INFO commandstats) over the measured window.
 */
final class HandoffScenario {
    private static final long MAX_WAIT_MILLIS = 2_000;

    private HandoffScenario() {}

    static void run(Bench b, List<Contender> all, List<Contender> ok, int threads) throws InterruptedException {
        Table t = new Table(
                "contender",
                "waits by",
                "handoffs/s",
                "handoff p50 µs",
                "handoff p99 µs",
                "fairness min/max",
                "commands sent / handoff",
                "all commands / handoff (incl. inside Lua)",
                "timeouts",
                "× snippet (polling)");
        double base = 0;
        java.util.Map<Contender, Object[]> cells = new java.util.LinkedHashMap<>();
        for (Contender c : ok) {
            if (b.outOfTime()) {
                break;
            }
            String key = "s4:" + Integer.toHexString(System.identityHashCode(c));
            Bench.progress("scenario 4: warm-up " + c.name());
            once(b, c, key, threads, b.config.warmup());
            Bench.progress("scenario 4: measure " + c.name());
            Map<String, Long> before = snapshotAll(b);
            Outcome o = once(b, c, key, threads, b.config.measure());
            Map<String, Long> delta = RedisStats.delta(before, snapshotAll(b));
            long handoffs = o.result.successes();
            double perSec = o.result.successesPerSecond();
            if (c instanceof SnippetContender) {
                base = perSec;
            }
            long min = Long.MAX_VALUE;
            long max = 0;
            for (long n : o.result.perThread()) {
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            double sent = handoffs == 0 ? 0 : (double) RedisStats.clientSent(delta, c.plainCommands()) / handoffs;
            double every = handoffs == 0 ? 0 : (double) RedisStats.total(delta) / handoffs;
            cells.put(c, new Object[] {
                c.name(),
                c.waitStyle(),
                perSec,
                Table.num(o.handoff.getValueAtPercentile(50) / 1000.0),
                Table.num(o.handoff.getValueAtPercentile(99) / 1000.0),
                min + "/" + max + " = "
                        + (max == 0 ? "–" : String.format(java.util.Locale.ROOT, "%.2f", (double) min / max)),
                Table.num(sent),
                Table.num(every),
                o.result.attempts() - o.result.successes() - o.result.errors(),
                ThroughputScenarios.errors(o.result)
            });
            Bench.progress("scenario 4: " + c.name() + " commands " + delta);
        }
        for (Contender c : all) {
            Object[] x = cells.get(c);
            if (x == null) {
                t.unavailable(c.name(), b.whyUnavailable(c) != null ? b.whyUnavailable(c) : "skipped (time budget)");
                continue;
            }
            double perSec = (Double) x[2];
            t.row(x[0], x[1], Table.num(perSec), x[3], x[4], x[5], x[6], x[7], x[8], Table.ratio(perSec, base));
        }
        b.section(
                "Scenario 4 — " + threads + " threads, one key, blocking wait",
                t.markdown()
                        + "\n*commands sent* = what clients sent (script calls, pub/sub, plain SET/DEL); *all commands* also counts "
                        + "every command a Lua script ran inside Redis. Errors: "
                        + cells.values().stream()
                                .map(x -> x[0] + " " + x[9])
                                .reduce((a, y) -> a + "; " + y)
                                .orElse("–") + ".\n");
    }

    /** Counters summed over every server (a Redlock contender talks to five). */
    private static Map<String, Long> snapshotAll(Bench b) {
        return RedisStats.snapshot(b.allPorts());
    }

    private record Outcome(LoadRunner.Result result, Histogram handoff) {}

    private static Outcome once(Bench b, Contender c, String key, int threads, java.time.Duration d)
            throws InterruptedException {
        Recorder handoff = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
        AtomicLong lastRelease = new AtomicLong();
        Runnable body = () -> {
            long now = System.nanoTime();
            long rel = lastRelease.get();
            if (rel != 0) {
                handoff.recordValue(Math.min(TimeUnit.SECONDS.toNanos(60), Math.max(0, now - rel)));
            }
            lastRelease.set(System.nanoTime()); // the release starts right after the body
        };
        LoadRunner.Result r = LoadRunner.run(
                "s4", threads, d, b.config.maxOpsPerThread(), (th, i) -> c.waitingCycle(key, MAX_WAIT_MILLIS, body));
        return new Outcome(r, handoff.getIntervalHistogram());
    }
}
