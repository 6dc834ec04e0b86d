package dev.lockwarden.bench;

import benchtarget.NoopService;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.config.Settings;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Runs inside the child JVM started with {@code -javaagent:lock-agent.jar}: times the agent-wrapped
 * {@link NoopService#noop} against {@code LockManager.acquire/close} around the same no-op, with a
 * LockManager built from the same settings as the agent's. Calls alternate direct, agent, agent, direct, …
 * so drift (JIT, GC, other processes) hits both alike. Prints one {@code PAIRED} line (paired differences with a
 * confidence interval) and one {@code RESULT} line per mode and path.
 *
 * <p>Arguments: redis port, calls per round, rounds, time budget in seconds.
 */
public final class AgentCallChild {
    static final String METHOD = "benchtarget.NoopService#noop";

    private AgentCallChild() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        Map<String, String> settings =
                Map.of("lockwarden.redis", "redis://127.0.0.1:" + port, "lockwarden.application", "agentbench");
        try (LockManager locks = LockManager.builder()
                .settings(new Settings(settings::get, Map.of()))
                .shutdownHook(false)
                .build()) {
            // the agent's rule takes the manager's defaults with source AGENT: the direct loop does the same
            LockOptions opts = locks.defaultOptions().source(LockSource.AGENT, METHOD);
            checkAgentHoldsLock(locks, opts);
            for (String mode : new String[] {"distinct", "same"}) {
                int n = calls * rounds;
                long[] direct = new long[n];
                long[] agent = new long[n];
                // warm-up of both paths, not recorded
                runPairs(locks, opts, mode, "w", calls, new long[calls], new long[calls], deadline);
                int done = runPairs(locks, opts, mode, "m", n, direct, agent, deadline);
                printPaired(mode, Arrays.copyOf(direct, done), Arrays.copyOf(agent, done));
                print(mode, "direct", Arrays.copyOf(direct, done));
                print(mode, "agent", Arrays.copyOf(agent, done));
            }
        }
        System.out.flush();
        System.exit(0);
    }

    /** Without this check a missing or mis-matched rule would make the "agent" loop look free. */
    private static void checkAgentHoldsLock(LockManager locks, LockOptions opts) {
        boolean[] busy = new boolean[1];
        NoopService.probe =
                () -> busy[0] = locks.tryAcquire("agentbench:probe", opts).isEmpty();
        try {
            NoopService.noop("probe");
        } finally {
            NoopService.probe = null;
        }
        if (!busy[0]) {
            throw new IllegalStateException("the agent did not lock " + METHOD + " (is -javaagent with the rule set?)");
        }
    }

    /**
     * Alternates per call: pair i times one direct and one agent-wrapped call back to back, in swapped order on odd
     * i, so drift, GC and the other processes on the machine hit both paths alike. In the distinct mode each path
     * has its own fresh names. Returns the pairs done.
     */
    private static int runPairs(
            LockManager locks,
            LockOptions opts,
            String mode,
            String round,
            int pairs,
            long[] direct,
            long[] agent,
            long deadline) {
        for (int i = 0; i < pairs; i++) {
            // distinct: each path takes a name nobody took before, so both pay the new name's Redis key creation on
            // every call (sharing one name per pair made whichever path came first pay it for both)
            String directKey = mode.equals("same") ? "same" : "d" + round + ":" + i;
            String agentKey = mode.equals("same") ? "same" : "a" + round + ":" + i;
            if ((i & 1) == 0) {
                direct[i] = direct(locks, opts, directKey);
                agent[i] = agent(agentKey);
            } else {
                agent[i] = agent(agentKey);
                direct[i] = direct(locks, opts, directKey);
            }
            if ((i & 1023) == 0 && System.nanoTime() > deadline) {
                return i;
            }
        }
        return pairs;
    }

    private static long direct(LockManager locks, LockOptions opts, String key) {
        long t0 = System.nanoTime();
        try (LockHandle h = locks.acquire("agentbench:" + key, opts)) {
            NoopService.plain(key);
        }
        return System.nanoTime() - t0;
    }

    private static long agent(String key) {
        long t0 = System.nanoTime();
        NoopService.noop(key);
        return System.nanoTime() - t0;
    }

    /**
     * The paired differences agent − direct: mean with a 95 % confidence interval (normal approximation, n in the
     * tens of thousands), the same after dropping the 1 % most extreme differences on each side (GC pauses and
     * preemptions on a shared machine), and the median difference.
     */
    private static void printPaired(String mode, long[] direct, long[] agent) {
        int n = direct.length;
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = (agent[i] - direct[i]) / 1000.0;
        }
        double[] sorted = d.clone();
        Arrays.sort(sorted);
        int cut = n / 100;
        double[] trimmed = Arrays.copyOfRange(sorted, cut, n - cut);
        double[] all = ci(d);
        double[] trim = ci(trimmed);
        System.out.printf(
                Locale.ROOT,
                "PAIRED mode=%s n=%d mean=%.3f lo=%.3f hi=%.3f tmean=%.3f tlo=%.3f thi=%.3f median=%.3f%n",
                mode,
                n,
                all[0],
                all[1],
                all[2],
                trim[0],
                trim[1],
                trim[2],
                sorted[n / 2]);
    }

    private static double[] ci(double[] v) {
        double mean = Arrays.stream(v).average().orElse(Double.NaN);
        double var = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.length - 1);
        double half = 1.96 * Math.sqrt(var / v.length);
        return new double[] {mean, mean - half, mean + half};
    }

    private static void print(String mode, String path, long[] t) {
        Arrays.sort(t);
        double mean = Arrays.stream(t).average().orElse(Double.NaN) / 1000;
        System.out.printf(
                Locale.ROOT,
                "RESULT mode=%s path=%s n=%d mean=%.2f p50=%.2f p99=%.2f%n",
                mode,
                path,
                t.length,
                mean,
                pct(t, 50),
                pct(t, 99));
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1);
        return sorted[Math.max(0, i)] / 1000.0;
    }
}
