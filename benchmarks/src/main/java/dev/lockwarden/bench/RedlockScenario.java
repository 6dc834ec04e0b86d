package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: distinct keys over 5 independent nodes — Lockwarden's Redlock, the plain snippet fanned
 * out in parallel and one node after another, Redisson's multi-node locks — next to the single-node
 * figures, with one thread; then the multi-node contenders again with the scenario's widest thread count.
 */
final class RedlockScenario {
    private RedlockScenario() {}

    static void run(Bench b, List<Contender> singleNode) throws InterruptedException {
        SnippetContender parallel = new SnippetContender(b.redlock, SnippetContender.Mode.PARALLEL);
        RedissonMultiContender redLock = new RedissonMultiContender(b.redlock, true);
        List<Contender> mine = List.of(
                parallel,
                new SnippetContender(b.redlock, SnippetContender.Mode.SEQUENTIAL),
                redLock,
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
            table(b, all, ok, 1, "s5");
            List<Contender> wide = new ArrayList<>();
            for (Contender c : all) {
                if (c == parallel || c == redLock || c.name().startsWith("Lockwarden Redlock")) {
                    wide.add(c);
                }
            }
            List<Contender> wideOk = new ArrayList<>(wide);
            wideOk.retainAll(ok);
            if (!b.outOfTime()) {
                table(b, wide, wideOk, b.config.threads(), "s5t");
            }
        } finally {
            mine.forEach(Bench::safeTearDown);
        }
    }

    private static void table(Bench b, List<Contender> all, List<Contender> ok, int threads, String tag)
            throws InterruptedException {
        Map<Contender, LoadRunner.Result> res = new LinkedHashMap<>();
        for (Contender c : ok) {
            if (b.outOfTime()) {
                break;
            }
            Bench.progress("scenario 5 (" + threads + " threads): warm-up " + c.name());
            String prefix = tag + ":" + Integer.toHexString(System.identityHashCode(c)) + ":";
            LoadRunner.run(
                    tag + "w",
                    threads,
                    b.config.warmup(),
                    b.config.maxOpsPerThread(),
                    (t, i) -> c.cycle(prefix + "w" + t + ":" + i));
        }
        for (int round = 0; round < b.config.rounds() && !b.outOfTime(); round++) {
            for (Contender c : ok) {
                Bench.progress("scenario 5 (" + threads + " threads): round " + (round + 1) + " " + c.name());
                String prefix = tag + ":" + Integer.toHexString(System.identityHashCode(c)) + ":" + round + ":";
                res.merge(
                        c,
                        LoadRunner.run(
                                tag,
                                threads,
                                b.measureSlice(),
                                b.config.maxOpsPerThread(),
                                (t, i) -> c.cycle(prefix + t + ":" + i)),
                        LoadRunner.Result::plus);
            }
        }
        double snippetSingle = 0;
        double snippetParallel = 0;
        double lockwardenSingle = 0;
        double redissonMulti = 0;
        for (Map.Entry<Contender, LoadRunner.Result> e : res.entrySet()) {
            String n = e.getKey().name();
            double v = e.getValue().successesPerSecond();
            if (n.startsWith("plain snippet (")) {
                snippetSingle = v;
            } else if (n.startsWith("plain snippet, ") && n.endsWith("in parallel")) {
                snippetParallel = v;
            } else if (n.equals("Lockwarden (single node)")) {
                lockwardenSingle = v;
            } else if (n.startsWith("Redisson RedissonRedLock")) {
                redissonMulti = v;
            }
        }
        List<String> head = new ArrayList<>(List.of("contender", "cycles/s", "p50 µs", "p99 µs"));
        if (threads == 1) {
            head.addAll(List.of("× snippet single node", "× Lockwarden single node"));
        }
        head.addAll(List.of("× snippet in parallel", "× RedissonRedLock", "errors"));
        Table t = new Table(head.toArray(String[]::new));
        for (Contender c : all) {
            LoadRunner.Result r = res.get(c);
            if (r == null) {
                t.unavailable(c.name(), b.whyUnavailable(c) != null ? b.whyUnavailable(c) : "skipped (time budget)");
                continue;
            }
            double v = r.successesPerSecond();
            List<Object> cells =
                    new ArrayList<>(List.of(c.name(), Table.num(v), Table.num(r.micros(50)), Table.num(r.micros(99))));
            if (threads == 1) {
                cells.add(Table.ratio(v, snippetSingle));
                cells.add(Table.ratio(v, lockwardenSingle));
            }
            cells.add(Table.ratio(v, snippetParallel));
            cells.add(Table.ratio(v, redissonMulti));
            cells.add(ThroughputScenarios.errors(r));
            t.row(cells.toArray());
        }
        String title = threads == 1
                ? "Scenario 5 — Redlock over " + b.redlock.size()
                        + " nodes: parallel vs sequential vs single node (one thread)"
                : "Scenario 5b — Redlock over " + b.redlock.size() + " nodes, " + threads + " threads, distinct keys";
        b.section(title, t.markdown());
    }
}
