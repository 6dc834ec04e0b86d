package dev.lockwarden.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import benchtarget.NoopService;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.config.Settings;

/**
 * Runs inside the child JVM started with {@code -javaagent:lock-agent.jar}: times the agent-wrapped
 * {@link NoopService#noop} against {@code LockManager.acquire/close} around the same no-op, with a
 * LockManager built from the same settings as the agent's. Rounds alternate direct, agent, direct,
 * agent so drift (JIT, other processes) hits both alike. Prints one {@code RESULT} line per mode and path.
 *
 * <p>Arguments: redis port, calls per round, rounds, time budget in seconds.
 */
public final class AgentCallChild {
    static final String METHOD = "benchtarget.NoopService#noop";

    private AgentCallChild() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        Map<String, String> settings = Map.of("lockwarden.redis", "redis://127.0.0.1:" + port,
                "lockwarden.application", "agentbench");
        try (LockManager locks = LockManager.builder().settings(new Settings(settings::get, Map.of()))
                .shutdownHook(false).build()) {
            // the agent's rule takes the manager's defaults with source AGENT: the direct loop does the same
            LockOptions opts = locks.defaultOptions().source(LockSource.AGENT, METHOD);
            checkAgentHoldsLock(locks, opts);
            for (String mode : new String[] {"distinct", "same"}) {
                long[][] times = new long[2][calls * rounds];
                int done = 0;
                // warm-up round of each path, not recorded
                runRound(locks, opts, mode, "wd", calls, new long[calls], 0, false, deadline);
                runRound(locks, opts, mode, "wa", calls, new long[calls], 0, true, deadline);
                for (int r = 0; r < rounds && System.nanoTime() < deadline; r++) {
                    runRound(locks, opts, mode, "d" + r, calls, times[0], done, false, deadline);
                    runRound(locks, opts, mode, "a" + r, calls, times[1], done, true, deadline);
                    done += calls;
                }
                print(mode, "direct", Arrays.copyOf(times[0], done));
                print(mode, "agent", Arrays.copyOf(times[1], done));
            }
        }
        System.out.flush();
        System.exit(0);
    }

    /** Without this check a missing or mis-matched rule would make the "agent" loop look free. */
    private static void checkAgentHoldsLock(LockManager locks, LockOptions opts) {
        boolean[] busy = new boolean[1];
        NoopService.probe = () -> busy[0] = locks.tryAcquire("agentbench:probe", opts).isEmpty();
        try {
            NoopService.noop("probe");
        } finally {
            NoopService.probe = null;
        }
        if (!busy[0]) {
            throw new IllegalStateException("the agent did not lock " + METHOD + " (is -javaagent with the rule set?)");
        }
    }

    private static void runRound(LockManager locks, LockOptions opts, String mode, String round, int calls,
                                 long[] out, int offset, boolean agent, long deadline) {
        for (int i = 0; i < calls; i++) {
            String key = mode.equals("same") ? "same" : round + ":" + i;
            long t0 = System.nanoTime();
            if (agent) {
                NoopService.noop(key);
            } else {
                try (LockHandle h = locks.acquire("agentbench:" + key, opts)) {
                    NoopService.plain(key);
                }
            }
            out[offset + i] = System.nanoTime() - t0;
            if ((i & 1023) == 0 && System.nanoTime() > deadline) {
                throw new IllegalStateException("time budget exhausted in round " + round + " after " + i + " calls");
            }
        }
    }

    private static void print(String mode, String path, long[] t) {
        Arrays.sort(t);
        double mean = Arrays.stream(t).average().orElse(Double.NaN) / 1000;
        System.out.printf(Locale.ROOT, "RESULT mode=%s path=%s n=%d mean=%.2f p50=%.2f p99=%.2f%n", mode, path, t.length,
                mean, pct(t, 50), pct(t, 99));
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1);
        return sorted[Math.max(0, i)] / 1000.0;
    }
}
