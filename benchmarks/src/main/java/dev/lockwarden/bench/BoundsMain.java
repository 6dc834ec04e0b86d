package dev.lockwarden.bench;

import dev.lockwarden.LockSource;
import dev.lockwarden.store.LockHolder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * The diagnostics entry ({@code benchmarks/diagnose}, docs/benchmark-diagnostics.md): measurements no
 * benchmark run makes, for finding what bounds a number — upper bounds on what a change could still buy,
 * measured rather than guessed. Several variants run in one JVM against the same fresh {@code redis-server}s, in interleaved slices
 * (six rounds), so a disturbance from outside hits all of them alike; each prints cycles/s and its ratio to
 * the first variant; {@code DiagnosticsSmokeTest} runs {@code scripts} in {@code mvn verify}.
 * <ul>
 *   <li>{@code -Dbench.bounds=scripts} (one node, {@code .threads} 1 and 16): the plain snippet, the FencingLock, Lockwarden's own
 *   {@code acquire.lua}/{@code release.lua} (packed holder, fence, release message), and a one-write prototype
 *   ({@code one-write-*.lua}: the fence kept in the lock key) — all on the same Jedis pool of {@link Pools#SIZE},
 *   without Lockwarden's client, so only the scripts differ.</li>
 *   <li>{@code -Dbench.bounds=fanout} (5 nodes, one thread): the snippet's commands sent to every node through
 *   one single-thread lane per node (waiting for a majority, as {@code NodeFanOut}), against the caller writing to
 *   all five connections itself and then reading the five replies (no thread hand-off at all: the best an
 *   asynchronous fan-out could do).</li>
 *   <li>{@code -Dbench.bounds=instructions} (one node under valgrind's callgrind): Redis's instructions per cycle
 *   of the snippet, the FencingLock, Lockwarden's scripts, the one-write prototype and a minimal Lua acquire ({@link CallgrindBound});
 *   counted, so repeatable to about 1% where cycles/s differ by 20% between runs.</li>
 * </ul>
 * Bounded: {@code .seconds} (default 24, at most 120) of measuring plus a warm-up slice per variant; every loop
 * also stops after 10 million cycles.
 */
public final class BoundsMain {
    private static final long MAX_CYCLES = 10_000_000L;
    private static final int ROUNDS = 6;

    private BoundsMain() {}

    public static void main(String[] args) throws Exception {
        String which = System.getProperty("bench.bounds", "scripts");
        long seconds = Math.min(120, Long.getLong("bench.bounds.seconds", 24));
        try (RedisServers servers = new RedisServers(System.getProperty("bench.redis-server", "redis-server"))) {
            switch (which) {
                case "scripts" -> {
                    int port = servers.start();
                    for (String t :
                            System.getProperty("bench.bounds.threads", "1,16").split(",")) {
                        scripts(port, Integer.parseInt(t.trim()), seconds);
                    }
                }
                case "fanout" ->
                    fanOut(
                            List.of(
                                    servers.start(),
                                    servers.start(),
                                    servers.start(),
                                    servers.start(),
                                    servers.start()),
                            seconds);
                case "instructions" -> new CallgrindBound(servers.binary().path()).run();
                default ->
                    throw new IllegalArgumentException(
                            "bench.bounds=" + which + ": use scripts, fanout or instructions");
            }
        }
        System.exit(0);
    }

    /** One acquire/release cycle of a variant, on key {@code key}. */
    private interface Cycle {
        void run(String key, String token);
    }

    private static void scripts(int port, int threads, long seconds) throws Exception {
        try (RedisClient redis = Pools.jedis(port)) {
            String snippetRelease = redis.scriptLoad(SnippetContender.RELEASE);
            String acquire = redis.scriptLoad(resource(LockHolder.class, "acquire.lua"));
            String release = redis.scriptLoad(resource(LockHolder.class, "release.lua"));
            String oneWriteAcquire = redis.scriptLoad(resource(BoundsMain.class, "one-write-acquire.lua"));
            String oneWriteRelease = redis.scriptLoad(resource(BoundsMain.class, "one-write-release.lua"));
            String fencingAcquire = redis.scriptLoad(resource(BoundsMain.class, "fencing-lock-acquire.lua"));
            String ttl = "30000";
            String retention = String.valueOf(TimeUnit.DAYS.toMillis(1));
            String holder = new LockHolder(
                            UUID.randomUUID().toString(),
                            "bench-worker-1",
                            LockSource.API,
                            "",
                            System.currentTimeMillis())
                    .encode();
            List<String> names = List.of(
                    "plain snippet (SET NX PX + Lua DEL)",
                    "FencingLock (INCR fence + SET NX PX script, the snippet's release)",
                    "Lockwarden's acquire.lua + release.lua (fence counter key + lock key)",
                    "prototype: one-write scripts (fence kept in the lock key)");
            List<Cycle> cycles = List.of(
                    (key, token) -> {
                        redis.set(key, token, SetParams.setParams().nx().px(30_000));
                        redis.evalsha(snippetRelease, List.of(key), List.of(token));
                    },
                    (key, token) -> {
                        redis.evalsha(fencingAcquire, List.of(key, key + ":fence"), List.of(token, ttl));
                        redis.evalsha(snippetRelease, List.of(key), List.of(token));
                    },
                    (key, token) -> {
                        redis.evalsha(
                                acquire, List.of(key, key + ":fence"), List.of(token, ttl, retention, "1", holder));
                        redis.evalsha(release, List.of(key, key + ":waiters"), List.of(token, "m"));
                    },
                    (key, token) -> {
                        redis.evalsha(oneWriteAcquire, List.of(key), List.of(token, ttl));
                        redis.evalsha(oneWriteRelease, List.of(key, key + ":released"), List.of(token, retention));
                    });
            report(
                    "scripts on one node, " + threads + " thread(s), Jedis pool " + Pools.SIZE,
                    names,
                    interleave(cycles, threads, seconds));
        }
    }

    private static void fanOut(List<Integer> ports, long seconds) throws Exception {
        List<Wire> wires = new ArrayList<>();
        List<ExecutorService> lanes = new ArrayList<>();
        for (int p : ports) {
            wires.add(new Wire(new HostAndPort("127.0.0.1", p)));
            lanes.add(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "bounds-lane-" + p);
                t.setDaemon(true);
                return t;
            }));
        }
        int majority = ports.size() / 2 + 1;
        // the lanes variant waits for a majority only, so its last calls may still run when the other variant
        // takes over the same connections: that one drains the lanes first
        java.util.concurrent.atomic.AtomicBoolean lanesBusy = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            Cycle viaLanes = (key, token) -> {
                lanesBusy.set(true);
                for (CommandArguments c : snippetCycle(key, token)) {
                    CountDownLatch replies = new CountDownLatch(majority);
                    for (int i = 0; i < wires.size(); i++) {
                        Wire w = wires.get(i);
                        lanes.get(i).execute(() -> {
                            w.call(c);
                            replies.countDown();
                        });
                    }
                    await(replies);
                }
            };
            Cycle gathered = (key, token) -> {
                if (lanesBusy.getAndSet(false)) {
                    drain(lanes);
                }
                for (CommandArguments c : snippetCycle(key, token)) {
                    for (Wire w : wires) {
                        w.write(c);
                    }
                    for (Wire w : wires) {
                        w.read();
                    }
                }
            };
            report(
                    "fan-out over " + ports.size()
                            + " nodes, one thread, the snippet's SET NX PX + Lua DEL on each node",
                    List.of(
                            "one lane thread per node, wait for a majority (as NodeFanOut)",
                            "the caller writes to all five connections, then reads the five replies"),
                    interleave(List.of(viaLanes, gathered), 1, seconds));
        } finally {
            lanes.forEach(ExecutorService::shutdownNow);
            wires.forEach(Connection::close);
        }
    }

    private static List<CommandArguments> snippetCycle(String key, String token) {
        return List.of(
                new CommandArguments(Protocol.Command.SET)
                        .add(key)
                        .add(token)
                        .add("NX")
                        .add("PX")
                        .add(30_000),
                new CommandArguments(Protocol.Command.EVAL)
                        .add(SnippetContender.RELEASE)
                        .add(1)
                        .add(key)
                        .add(token));
    }

    private static void drain(List<ExecutorService> lanes) {
        for (ExecutorService lane : lanes) {
            try {
                lane.submit(() -> {}).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("a lane did not drain within 10 s", e);
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no majority of replies within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Cycles per second of each variant: a warm-up slice each, then {@link #ROUNDS} rounds of one slice per variant. */
    private static double[] interleave(List<Cycle> variants, int threads, long seconds) throws Exception {
        return new Interleaver(variants, threads).run(TimeUnit.SECONDS.toMillis(seconds) / ROUNDS / variants.size());
    }

    private static void report(String title, List<String> names, double[] rates) {
        System.out.println("== " + title + " (" + ROUNDS + " interleaved rounds)");
        for (int i = 0; i < names.size(); i++) {
            System.out.println(String.format(
                    Locale.ROOT, "  %-75s %,9.0f cycles/s  %.2fx", names.get(i), rates[i], rates[i] / rates[0]));
        }
    }

    static String resource(Class<?> next, String name) throws IOException {
        try (InputStream in = next.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " not found next to " + next.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Worker threads that run whichever variant is current; counts only inside measured slices. */
    private static final class Interleaver {
        private final List<Cycle> variants;
        private final int threads;
        private volatile int current;
        private volatile boolean measuring;
        private volatile boolean stop;
        private final LongAdder count = new LongAdder();

        Interleaver(List<Cycle> variants, int threads) {
            this.variants = variants;
            this.threads = threads;
        }

        double[] run(long sliceMillis) throws Exception {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String prefix = "bounds:" + t + ":";
                Thread w = new Thread(
                        () -> {
                            for (long k = 0; !stop && k < MAX_CYCLES; k++) {
                                int v = current;
                                variants.get(v)
                                        .run(
                                                prefix + (k % 100_000),
                                                UUID.randomUUID().toString());
                                if (measuring && current == v) {
                                    count.increment();
                                }
                            }
                        },
                        "bounds-worker-" + t);
                w.setDaemon(true);
                w.start();
                workers.add(w);
            }
            double[] cycles = new double[variants.size()];
            double[] nanos = new double[variants.size()];
            try {
                for (int v = 0; v < variants.size(); v++) { // warm-up
                    switchTo(v);
                    Thread.sleep(Math.max(1_000, sliceMillis));
                }
                for (int round = 0; round < ROUNDS; round++) {
                    for (int v = 0; v < variants.size(); v++) {
                        switchTo(v);
                        Thread.sleep(100); // the previous variant's cycles in flight end
                        count.reset();
                        measuring = true;
                        long t0 = System.nanoTime();
                        Thread.sleep(sliceMillis);
                        measuring = false;
                        nanos[v] += System.nanoTime() - t0;
                        cycles[v] += count.sum();
                    }
                }
            } finally {
                stop = true;
                for (Thread w : workers) {
                    w.join(10_000);
                }
            }
            double[] rates = new double[variants.size()];
            for (int v = 0; v < rates.length; v++) {
                rates[v] = cycles[v] / (nanos[v] / 1e9);
            }
            return rates;
        }

        private void switchTo(int v) {
            current = v;
        }
    }

    /** A Jedis connection with its write and its read apart. */
    private static final class Wire extends Connection {
        Wire(HostAndPort node) {
            super(node);
        }

        Object call(CommandArguments c) {
            sendCommand(c);
            return getOne();
        }

        void write(CommandArguments c) {
            sendCommand(c);
            flush();
        }

        Object read() {
            return getUnflushedObject();
        }
    }
}
