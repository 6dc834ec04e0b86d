package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: one thread, distinct keys, over 5 independent nodes — Lockwarden's Redlock, the
 * plain snippet fanned out in parallel and one node after another, Redisson's multi-node locks —
 * next to the single-node figures.
 */
final class RedlockScenario {
    private RedlockScenario() {}

    static void run(Bench b, List<Contender> singleNode) throws InterruptedException {
        List<Contender> mine = List.of(
                new SnippetContender(b.redlock, SnippetContender.Mode.PARALLEL),
                new SnippetContender(b.redlock, SnippetContender.Mode.SEQUENTIAL),
                new RedissonMultiContender(b.redlock, true),
                new RedissonMultiContender(b.redlock, false));
        List<Contender> all = new ArrayList<>(singleNode);
        all.addAll(mine);
        List<Contender> ok = new ArrayList<>();
        for (Contender c : singleNode) {
            if (b.whyUnavailable(c) == null) {
                ok.add(c);
            }
        }
        ok.addAll(b.setUp(mine));
        try {
            Map<Contender, LoadRunner.Result> res = new LinkedHashMap<>();
            for (Contender c : ok) {
                if (b.outOfTime()) {
                    break;
                }
                Bench.progress("scenario 5: warm-up " + c.name());
                String prefix = "s5:" + Integer.toHexString(System.identityHashCode(c)) + ":";
                LoadRunner.run(
                        "s5w", 1, b.config.warmup(), b.config.maxOpsPerThread(), (t, i) -> c.cycle(prefix + "w" + i));
            }
            for (int round = 0; round < b.config.rounds() && !b.outOfTime(); round++) {
                for (Contender c : ok) {
                    Bench.progress("scenario 5: round " + (round + 1) + " " + c.name());
                    String prefix = "s5:" + Integer.toHexString(System.identityHashCode(c)) + ":" + round + ":";
                    res.merge(
                            c,
                            LoadRunner.run(
                                    "s5",
                                    1,
                                    b.measureSlice(),
                                    b.config.maxOpsPerThread(),
                                    (t, i) -> c.cycle(prefix + i)),
                            LoadRunner.Result::plus);
                }
            }
            double snippetSingle = 0;
            double lockwardenSingle = 0;
            double redissonMulti = 0;
            for (Map.Entry<Contender, LoadRunner.Result> e : res.entrySet()) {
                String n = e.getKey().name();
                double v = e.getValue().successesPerSecond();
                if (n.startsWith("plain snippet (")) {
                    snippetSingle = v;
                } else if (n.equals("Lockwarden (single node)")) {
                    lockwardenSingle = v;
                } else if (n.startsWith("Redisson RedissonRedLock")) {
                    redissonMulti = v;
                }
            }
            Table t = new Table(
                    "contender",
                    "cycles/s",
                    "p50 µs",
                    "p99 µs",
                    "× snippet single node",
                    "× Lockwarden single node",
                    "× RedissonRedLock",
                    "errors");
            for (Contender c : all) {
                LoadRunner.Result r = res.get(c);
                if (r == null) {
                    t.unavailable(
                            c.name(), b.whyUnavailable(c) != null ? b.whyUnavailable(c) : "skipped (time budget)");
                    continue;
                }
                double v = r.successesPerSecond();
                t.row(
                        c.name(),
                        Table.num(v),
                        Table.num(r.micros(50)),
                        Table.num(r.micros(99)),
                        Table.ratio(v, snippetSingle),
                        Table.ratio(v, lockwardenSingle),
                        Table.ratio(v, redissonMulti),
                        ThroughputScenarios.errors(r));
            }
            b.section(
                    "Scenario 5 — Redlock over " + b.redlock.size()
                            + " nodes: parallel vs sequential vs single node (one thread)",
                    t.markdown());
        } finally {
            mine.forEach(Bench::safeTearDown);
        }
    }
}
