package dev.lockwarden.bench;

import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 8: what replica acknowledgement costs. A master with one replica (both on this machine); Lockwarden on
 * the master without and with {@code replicaAcks(1, 100 ms)}, distinct keys, one thread and the scenario's widest
 * thread count, in interleaved rounds. With acknowledgement each acquire runs its script and {@code WAIT} on a
 * pooled connection borrowed for the call (not the shared one), so the cost is the replica's round trip plus
 * the lost batching of the shared connection.
 */
final class ReplicaAckScenario {
    private static final Duration TTL = Duration.ofSeconds(30);

    private ReplicaAckScenario() {}

    static void run(Bench b, RedisServers servers) throws InterruptedException {
        int master = servers.start();
        servers.startReplicaOf(master);
        List<Contender> all = List.of(
                new LockwardenContender("Lockwarden, master + 1 replica, no acks", List.of(master)),
                new LockwardenContender(
                        "Lockwarden, master + 1 replica, replicaAcks(1, 100 ms)",
                        List.of(master),
                        LockOptions.ttl(TTL).replicaAcks(1, Duration.ofMillis(100))));
        List<Contender> ok = b.setUp(all);
        try {
            Table t = new Table("contender", "threads", "cycles/s", "p50 µs", "p99 µs", "× no acks", "errors");
            for (int threads : new int[] {1, b.config.threads()}) {
                if (b.outOfTime()) {
                    break;
                }
                Map<Contender, LoadRunner.Result> res = measure(b, ok, threads);
                double base = res.isEmpty() ? 0 : res.values().iterator().next().successesPerSecond();
                for (Contender c : all) {
                    LoadRunner.Result r = res.get(c);
                    if (r == null) {
                        String why = b.whyUnavailable(c);
                        t.unavailable(c.name(), why != null ? why : "skipped (time budget)");
                        continue;
                    }
                    double v = r.successesPerSecond();
                    t.row(
                            c.name(),
                            Integer.toString(threads),
                            Table.num(v),
                            Table.num(r.micros(50)),
                            Table.num(r.micros(99)),
                            Table.ratio(v, base),
                            ThroughputScenarios.errors(r));
                }
            }
            b.section(
                    "Scenario 8 — replica acknowledgement: master + 1 replica, distinct keys",
                    t.markdown()
                            + "\nA cycle is acquire + release; with acknowledgement the acquire waits for the replica"
                            + " (WAIT 1 100), the release does not.\n");
        } finally {
            all.forEach(Bench::safeTearDown);
        }
    }

    private static Map<Contender, LoadRunner.Result> measure(Bench b, List<Contender> ok, int threads)
            throws InterruptedException {
        for (Contender c : ok) {
            Bench.progress("scenario 8 (" + threads + " threads): warm-up " + c.name());
            String prefix = "s8w:" + threads + ":" + Integer.toHexString(System.identityHashCode(c)) + ":";
            LoadRunner.run(
                    "s8w",
                    threads,
                    b.config.warmup(),
                    b.config.maxOpsPerThread(),
                    (t, i) -> c.cycle(prefix + t + ":" + i));
        }
        Map<Contender, LoadRunner.Result> res = new LinkedHashMap<>();
        for (int round = 0; round < b.config.rounds() && !b.outOfTime(); round++) {
            for (Contender c : ok) {
                Bench.progress("scenario 8 (" + threads + " threads): round " + (round + 1) + " " + c.name());
                String prefix =
                        "s8:" + threads + ":" + Integer.toHexString(System.identityHashCode(c)) + ":" + round + ":";
                res.merge(
                        c,
                        LoadRunner.run(
                                "s8",
                                threads,
                                b.measureSlice(),
                                b.config.maxOpsPerThread(),
                                (t, i) -> c.cycle(prefix + t + ":" + i)),
                        LoadRunner.Result::plus);
            }
        }
        return res;
    }
}
