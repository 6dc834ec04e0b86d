package dev.lockwarden.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Jedis;

/**
 * Command counters of one Redis server ({@code INFO commandstats}). Redis also counts the commands a
 * Lua script runs inside it, so two figures come out of a delta: every command executed, and the
 * commands clients sent (script calls, pub/sub, plain commands of script-less clients).
 */
final class RedisStats {
    /**
     * Commands only ever sent by clients in these benchmarks, never run inside a script. Not
     * {@code xadd}: Lockwarden's release script appends its events entry itself (a client-sent XADD,
     * on Redis Cluster only, is then counted as a command inside a script).
     */
    private static final Set<String> CLIENT_ONLY = Set.of(
            "eval",
            "evalsha",
            "eval_ro",
            "evalsha_ro",
            "fcall",
            "subscribe",
            "unsubscribe",
            "psubscribe",
            "punsubscribe",
            "ssubscribe",
            "sunsubscribe",
            "ping",
            "script|load",
            "script",
            "client|setname",
            "client",
            "hello",
            "select",
            "auth",
            "scan",
            "info");

    /** Suffix of the entries holding the microseconds Redis spent in a command. */
    static final String USEC = "#usec";
    /**
     * Pseudo-entry of a snapshot: the CPU the Redis process used so far ({@code INFO cpu}, user + system, µs),
     * which unlike the command times also counts the system calls that read and answer the commands.
     */
    static final String PROCESS_CPU = "redis-process-cpu" + USEC;

    private RedisStats() {}

    /** calls per command name, e.g. {@code evalsha -> 1234}. */
    static Map<String, Long> snapshot(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port, 5_000)) {
            Map<String, Long> calls = parse(j.info("commandstats"));
            calls.put(PROCESS_CPU, Math.round(cpuSeconds(j.info("cpu")) * 1e6));
            return calls;
        }
    }

    /** The Redis process's CPU so far (s): {@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}. */
    static double cpuSeconds(String info) {
        double s = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                s += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return s;
    }

    static Map<String, Long> parse(String info) {
        Map<String, Long> calls = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = line.substring("cmdstat_".length(), colon);
            for (String kv : line.substring(colon + 1).split(",")) {
                if (kv.startsWith("calls=")) {
                    calls.put(name, Long.parseLong(kv.substring(6)));
                } else if (kv.startsWith("usec=")) {
                    calls.put(name + USEC, Long.parseLong(kv.substring(5)));
                }
            }
        }
        return calls;
    }

    static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new HashMap<>();
        after.forEach((k, v) -> {
            long x = v - before.getOrDefault(k, 0L);
            if (x > 0 && !k.startsWith("info")) {
                d.put(k, x);
            }
        });
        return d;
    }

    /** Every command executed, including those run inside scripts. */
    static long total(Map<String, Long> delta) {
        return delta.entrySet().stream()
                .filter(e -> !e.getKey().endsWith(USEC))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** Microseconds Redis spent executing (top-level calls; a script's time includes its inner commands). */
    static long usec(Map<String, Long> delta, Set<String> plain) {
        long n = 0;
        for (Map.Entry<String, Long> e : delta.entrySet()) {
            String k = e.getKey();
            String cmd = k.endsWith(USEC) ? k.substring(0, k.length() - USEC.length()) : null;
            if (cmd != null && (CLIENT_ONLY.contains(cmd) || plain.contains(cmd))) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** Counters summed over several servers. */
    static Map<String, Long> snapshot(java.util.List<Integer> ports) {
        Map<String, Long> sum = new HashMap<>();
        for (int p : ports) {
            snapshot(p).forEach((k, v) -> sum.merge(k, v, Long::sum));
        }
        return sum;
    }

    /**
     * Commands clients sent: script calls and pub/sub, plus the {@code plain} commands that the
     * contender sends itself (e.g. {@code set} and {@code del} for a script-less client).
     */
    static long clientSent(Map<String, Long> delta, Set<String> plain) {
        long n = 0;
        for (Map.Entry<String, Long> e : delta.entrySet()) {
            if (CLIENT_ONLY.contains(e.getKey()) || plain.contains(e.getKey())) {
                n += e.getValue();
            }
        }
        return n;
    }

    static void flushAll(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port, 30_000)) {
            j.flushAll();
        }
    }
}
