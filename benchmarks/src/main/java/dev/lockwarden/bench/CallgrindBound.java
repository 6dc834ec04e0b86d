package dev.lockwarden.bench;

import dev.lockwarden.LockSource;
import dev.lockwarden.store.LockHolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@code -Dbench.bounds=instructions}: Redis's own work per lock cycle, counted rather than timed. One
 * {@code redis-server} runs under valgrind's callgrind; for each variant it is flushed, warmed with
 * {@value #WARM} cycles over {@value #NAMES} reused lock names (so fence counters exist, as in steady use),
 * its counters are zeroed ({@code callgrind_control -z}), {@value #CYCLES} cycles are sent pipelined in
 * batches of {@value #BATCH} and the counters are dumped ({@code callgrind_control -d}). The instructions per
 * cycle of each variant (median of {@value #ROUNDS} interleaved rounds) are what Redis spends per acquire +
 * release, free of the client, the scheduler and the other process on the two cores: repeatable to about 1%,
 * where throughput runs differ by 20%. Pipelining leaves out the per-request network cost, which is the same
 * for every variant (two requests per cycle).
 *
 * <p>Needs valgrind ({@code sudo apt-get install -y valgrind}); bounded: every wait has a timeout and the
 * server is killed at the end.
 */
final class CallgrindBound {
    private static final int NAMES = 1_000;
    private static final int WARM = 2_000;
    private static final int CYCLES = 4_000;
    private static final int BATCH = 500;
    private static final int ROUNDS = 3;
    private static final String TTL = "30000";

    /** The two commands of one cycle of a variant, on lock name {@code key}. */
    private record Variant(String name, BiFunction<String, String, List<CommandArguments>> cycle) {}

    private final Path redisServer;

    CallgrindBound(Path redisServer) {
        this.redisServer = redisServer;
    }

    void run() throws Exception {
        Path dir = Files.createTempDirectory("lockwarden-callgrind");
        int port = freePort();
        Process redis = start(dir, port);
        try (Connection c = connect(port, redis)) {
            List<Variant> variants = variants(c);
            double[][] perCycle = new double[variants.size()][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int v = 0; v < variants.size(); v++) {
                    perCycle[v][round] = measure(c, redis.pid(), dir, variants.get(v));
                }
            }
            System.out.println("== Redis instructions per acquire + release cycle (callgrind, " + CYCLES
                    + " pipelined cycles over " + NAMES + " names, median of " + ROUNDS + " interleaved rounds)");
            double base = median(perCycle[0]);
            for (int v = 0; v < variants.size(); v++) {
                double m = median(perCycle[v]);
                System.out.println(String.format(
                        Locale.ROOT,
                        "  %-75s %,9.0f instructions  %.2fx   (rounds %s)",
                        variants.get(v).name(),
                        m,
                        m / base,
                        Arrays.toString(Arrays.stream(perCycle[v])
                                .mapToLong(Math::round)
                                .toArray())));
            }
        } finally {
            redis.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private static List<Variant> variants(Connection c) throws IOException {
        String snippetRelease = load(c, SnippetContender.RELEASE);
        String acquire = load(c, BoundsMain.resource(LockHolder.class, "acquire.lua"));
        String release = load(c, BoundsMain.resource(LockHolder.class, "release.lua"));
        String oneWriteAcquire = load(c, BoundsMain.resource(BoundsMain.class, "one-write-acquire.lua"));
        String oneWriteRelease = load(c, BoundsMain.resource(BoundsMain.class, "one-write-release.lua"));
        String minimalAcquire = load(c, BoundsMain.resource(BoundsMain.class, "minimal-acquire.lua"));
        String fencingAcquire = load(c, BoundsMain.resource(BoundsMain.class, "fencing-lock-acquire.lua"));
        String retention = String.valueOf(TimeUnit.DAYS.toMillis(1));
        String holder = new LockHolder(
                        UUID.randomUUID().toString(), "bench-worker-1", LockSource.API, "", System.currentTimeMillis())
                .encode();
        return List.of(
                new Variant(
                        "plain snippet (SET NX PX + Lua DEL)",
                        (key, token) -> List.of(
                                cmd(Protocol.Command.SET, key, token, "NX", "PX", TTL),
                                evalsha(snippetRelease, List.of(key), token))),
                new Variant(
                        "FencingLock (INCR fence + SET NX PX script, the snippet's release)",
                        (key, token) -> List.of(
                                evalsha(fencingAcquire, List.of(key, key + ":fence"), token, TTL),
                                evalsha(snippetRelease, List.of(key), token))),
                new Variant(
                        "Lockwarden's acquire.lua + release.lua (fence, packed holder; nobody waits)",
                        (key, token) -> List.of(
                                evalsha(acquire, List.of(key, key + ":fence"), token, TTL, retention, "1", holder),
                                evalsha(release, List.of(key, key + ":waiters"), token, "m"))),
                new Variant(
                        "the FencingLock's acquire alone (released by a native DEL)",
                        (key, token) -> List.of(
                                evalsha(fencingAcquire, List.of(key, key + ":fence"), token, TTL),
                                cmd(Protocol.Command.DEL, key))),
                new Variant(
                        "Lockwarden's acquire.lua alone (released by a native DEL)",
                        (key, token) -> List.of(
                                evalsha(acquire, List.of(key, key + ":fence"), token, TTL, retention, "1", holder),
                                cmd(Protocol.Command.DEL, key))),
                new Variant(
                        "prototype: one-write scripts (fence kept in the lock key)",
                        (key, token) -> List.of(
                                evalsha(oneWriteAcquire, List.of(key), token, TTL),
                                evalsha(oneWriteRelease, List.of(key, key + ":released"), token, retention))),
                new Variant(
                        "floor: minimal Lua acquire (GET + SET PX, no fence) + the snippet's release",
                        (key, token) -> List.of(
                                evalsha(minimalAcquire, List.of(key), token, TTL),
                                evalsha(snippetRelease, List.of(key), token))));
    }

    /** Instructions per cycle of one variant, from a fresh, warmed server. */
    private static double measure(Connection c, long pid, Path dir, Variant variant) throws Exception {
        c.sendCommand(Protocol.Command.FLUSHALL);
        checked(c.getMany(1));
        send(c, variant, WARM);
        callgrindControl("-z", pid);
        send(c, variant, CYCLES);
        long before = System.currentTimeMillis();
        callgrindControl("-d", pid);
        return instructions(dir, pid, before) / (double) CYCLES;
    }

    private static void send(Connection c, Variant variant, int cycles) {
        String token = UUID.randomUUID().toString();
        for (int done = 0; done < cycles; done += BATCH) {
            int n = Math.min(BATCH, cycles - done);
            int commands = 0;
            for (int i = 0; i < n; i++) {
                for (CommandArguments command :
                        variant.cycle().apply("lockwarden:lock:bench:" + ((done + i) % NAMES), token)) {
                    c.sendCommand(command);
                    commands++;
                }
            }
            checked(c.getMany(commands));
        }
    }

    private static void checked(List<Object> replies) {
        for (Object r : replies) {
            if (r instanceof JedisDataException e) {
                throw new IllegalStateException("Redis refused a command of the measured cycle: " + e.getMessage(), e);
            }
        }
    }

    /** The total of the newest dump written after {@code since} (callgrind's {@code summary:} line). */
    private static long instructions(Path dir, long pid, long since) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Optional<Path> dump;
            try (Stream<Path> files = Files.list(dir)) {
                dump = files.filter(f -> f.getFileName().toString().startsWith("cg." + pid + "."))
                        .filter(f -> f.toFile().lastModified() >= since - 1_000)
                        .max(Comparator.comparingInt(f -> dumpNumber(f)));
            }
            if (dump.isPresent()) {
                for (String line : Files.readAllLines(dump.get())) {
                    if (line.startsWith("summary:") || line.startsWith("totals:")) {
                        return Long.parseLong(
                                line.substring(line.indexOf(':') + 1).trim().split("\\s+")[0]);
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("callgrind wrote no complete dump into " + dir + " within 60 s");
    }

    private static int dumpNumber(Path f) {
        String name = f.getFileName().toString();
        return Integer.parseInt(name.substring(name.lastIndexOf('.') + 1));
    }

    private static void callgrindControl(String option, long pid) throws Exception {
        Process p = new ProcessBuilder("callgrind_control", option, String.valueOf(pid))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("callgrind_control " + option + " " + pid + " did not return within 60 s");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(
                    "callgrind_control " + option + " " + pid + " failed (exit " + p.exitValue() + ")");
        }
    }

    private Process start(Path dir, int port) {
        try {
            return new ProcessBuilder(
                            "valgrind",
                            "--tool=callgrind",
                            "--callgrind-out-file=" + dir.resolve("cg.%p"),
                            redisServer.toString(),
                            "--port",
                            String.valueOf(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("valgrind.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "bench.bounds=instructions needs valgrind on the PATH "
                            + "(Debian/Ubuntu: sudo apt-get install -y valgrind)",
                    e);
        }
    }

    /** Waits (at most 60 s: valgrind is slow to start) until the server answers PING. */
    private static Connection connect(int port, Process redis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!redis.isAlive()) {
                throw new IllegalStateException("redis-server under valgrind exited with " + redis.exitValue()
                        + " before it answered (see valgrind.log in the temporary directory)");
            }
            try {
                Connection c = new Connection(new HostAndPort("127.0.0.1", port));
                c.sendCommand(Protocol.Command.PING);
                c.getOne();
                return c;
            } catch (RuntimeException notYet) {
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException(
                "redis-server under valgrind did not answer PING on 127.0.0.1:" + port + " within 60 s");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String load(Connection c, String script) {
        c.sendCommand(Protocol.Command.SCRIPT, "LOAD", script);
        Object reply = c.getOne();
        return new String((byte[]) reply, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static CommandArguments cmd(Protocol.Command command, String... args) {
        CommandArguments c = new CommandArguments(command);
        for (String a : args) {
            c.add(a);
        }
        return c;
    }

    private static CommandArguments evalsha(String sha, List<String> keys, String... args) {
        CommandArguments c =
                new CommandArguments(Protocol.Command.EVALSHA).add(sha).add(keys.size());
        keys.forEach(c::add);
        for (String a : args) {
            c.add(a);
        }
        return c;
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
