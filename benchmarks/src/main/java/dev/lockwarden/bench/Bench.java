package dev.lockwarden.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What every scenario shares: settings, servers, contenders, the report being written, the time budget. */
final class Bench {
    final BenchConfig config;
    final int single;
    final List<Integer> redlock;
    final long deadlineNanos;
    private final StringBuilder report = new StringBuilder();
    private final Map<Contender, String> unavailable = new LinkedHashMap<>();
    RedisLimit.Result limit1;
    RedisLimit.Result limit16;

    Bench(BenchConfig config, int single, List<Integer> redlock) {
        this.config = config;
        this.single = single;
        this.redlock = List.copyOf(redlock);
        this.deadlineNanos = System.nanoTime() + config.budget().toNanos();
    }

    /** The single node and the Redlock nodes. */
    List<Integer> allPorts() {
        List<Integer> l = new ArrayList<>(redlock);
        l.add(0, single);
        return l;
    }

    /** Sets each contender up; those that cannot run are remembered with their reason. */
    List<Contender> setUp(List<Contender> all) {
        List<Contender> ok = new ArrayList<>();
        for (Contender c : all) {
            try {
                c.setUp();
                ok.add(c);
            } catch (Contender.NotAvailable e) {
                unavailable.put(c, e.getMessage());
            } catch (Exception | LinkageError e) {
                unavailable.put(c, "n/a (set-up failed: " + e + ")");
                safeTearDown(c);
            }
        }
        return ok;
    }

    /** Why a contender is not in the list, or null if it is. */
    String whyUnavailable(Contender c) {
        return unavailable.get(c);
    }

    static void safeTearDown(Contender c) {
        try {
            c.tearDown();
        } catch (RuntimeException ignored) {
            // best effort
        }
    }

    boolean outOfTime() {
        return System.nanoTime() - deadlineNanos > 0;
    }

    Duration measureSlice() {
        return config.measure().dividedBy(Math.max(1, config.rounds()));
    }

    void section(String title, String text) {
        report.append("### ").append(title).append("\n\n").append(text).append('\n');
        log("\n### " + title + "\n\n" + text);
    }

    void note(String text) {
        report.append(text).append("\n\n");
        log(text + "\n");
    }

    String report() {
        return report.toString();
    }

    static void log(String s) {
        System.out.println(s);
        System.out.flush();
    }

    static void progress(String s) {
        System.err.println("[bench] " + s);
        System.err.flush();
    }
}
