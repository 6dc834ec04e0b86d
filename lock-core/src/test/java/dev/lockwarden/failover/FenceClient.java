package dev.lockwarden.failover;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One client of the failover stress: its own {@link LockManager}, looping acquire → {@link FencedRow#FENCE
 * JdbcFence} claim → read the row → fenced update to value + 1 → release until stopped. Each statement
 * commits on its own (auto-commit), so no database row lock spans the read and the write: only the
 * claimed fence stops an older holder in between. Failures a failover
 * causes ({@link LockStoreException}, {@link LockNotAcquiredException}) are counted, not thrown; every
 * call is timed against its budget. {@link #main} runs a few of them in a child JVM.
 */
final class FenceClient implements Runnable {

    static final Duration TTL = Duration.ofSeconds(2);
    static final Duration WAIT = Duration.ofSeconds(4);
    /** What a call may take beyond its wait: the manager's 500 ms Redis timeout, a few times. */
    static final Duration SLACK = Duration.ofSeconds(2);

    private static final LockOptions OPTS = LockOptions.ttl(TTL).waitUpTo(WAIT);

    /** Counters shared by the clients of one JVM. */
    static final class Stats {
        final AtomicLong grants = new AtomicLong();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong rejected = new AtomicLong();
        final AtomicLong notAcquired = new AtomicLong();
        final AtomicLong storeErrors = new AtomicLong();
        final AtomicLong releaseErrors = new AtomicLong();
        final AtomicLong otherErrors = new AtomicLong();
        final AtomicLong overBudget = new AtomicLong();
        final AtomicLong maxAcquireMs = new AtomicLong();
        final AtomicLong maxReleaseMs = new AtomicLong();
        final List<String> samples = new ArrayList<>();

        Map<String, Long> toMap() {
            Map<String, Long> m = new TreeMap<>();
            m.put("grants", grants.get());
            m.put("accepted", accepted.get());
            m.put("rejected", rejected.get());
            m.put("notAcquired", notAcquired.get());
            m.put("storeErrors", storeErrors.get());
            m.put("releaseErrors", releaseErrors.get());
            m.put("otherErrors", otherErrors.get());
            m.put("overBudget", overBudget.get());
            m.put("maxAcquireMs", maxAcquireMs.get());
            m.put("maxReleaseMs", maxReleaseMs.get());
            return m;
        }

        synchronized void sample(String what) {
            if (samples.size() < 5) {
                samples.add(what);
            }
        }
    }

    private final String id;
    private final LockManager locks;
    private final String url;
    private final String name;
    private final Stats stats;
    private volatile boolean stop;

    FenceClient(String id, LockManager locks, String url, String name, Stats stats) {
        this.id = id;
        this.locks = locks;
        this.url = url;
        this.name = name;
        this.stats = stats;
    }

    /**
     * A manager for {@code topology}: {@code sentinel:MASTER@uri,uri} or {@code cluster:uri,uri}.
     * Short Redis timeout as in {@link Clients}, so a dead master fails calls fast.
     */
    static LockManager manager(String topology, String application) {
        String[] kind = topology.split(":", 2);
        LockManager.Builder b = LockManager.builder()
                .application(application)
                .timeout(Duration.ofMillis(500))
                .shutdownHook(false);
        if (kind[0].equals("sentinel")) {
            String[] master = kind[1].split("@", 2);
            b.sentinel(master[0], master[1].split(","));
        } else {
            b.cluster(kind[1].split(","));
        }
        return b.build();
    }

    void stop() {
        stop = true;
    }

    @Override
    public void run() {
        try (Connection db = DriverManager.getConnection(url)) {
            db.setAutoCommit(true);
            while (!stop) {
                round(db);
            }
        } catch (SQLException | RuntimeException e) {
            stats.otherErrors.incrementAndGet();
            stats.sample(id + " stopped: " + e);
        }
    }

    private void round(Connection db) throws SQLException {
        long startedMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        LockHandle lock;
        try {
            lock = locks.acquire(name, OPTS);
        } catch (LockNotAcquiredException e) {
            stats.notAcquired.incrementAndGet();
            return;
        } catch (LockStoreException e) {
            stats.storeErrors.incrementAndGet();
            pause();
            return;
        } finally {
            timed(t0, stats.maxAcquireMs, WAIT.plus(SLACK), "acquire");
        }
        stats.grants.incrementAndGet();
        long acquiredMs = System.currentTimeMillis();
        try {
            long fence = lock.fencingToken();
            if (FencedRow.FENCE.claim(db, FencedRow.ID, fence)
                    && FencedRow.FENCE.update(
                            db, FencedRow.ID, fence, Map.of("val", FencedRow.read(db) + 1, "writer", id))) {
                stats.accepted.incrementAndGet();
            } else {
                stats.rejected.incrementAndGet();
            }
            FencedRow.grant(db, id, fence, startedMs, acquiredMs);
        } finally {
            long t1 = System.nanoTime();
            try {
                lock.release();
            } catch (LockStoreException e) {
                stats.releaseErrors.incrementAndGet();
            } finally {
                timed(t1, stats.maxReleaseMs, SLACK, "release");
            }
        }
    }

    private void timed(long startNanos, AtomicLong max, Duration budget, String call) {
        long ms = (System.nanoTime() - startNanos) / 1_000_000;
        max.accumulateAndGet(ms, Math::max);
        if (ms > budget.toMillis()) {
            stats.overBudget.incrementAndGet();
            stats.sample(id + ": " + call + " took " + ms + " ms");
        }
    }

    /** A short back-off after a Redis failure, as an application would, so failing calls do not spin. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts {@code count} clients on their own threads; {@code managers} builds each one's manager. */
    static List<FenceClient> startAll(
            String prefix, int count, Function<String, LockManager> managers, String url, String name, Stats stats) {
        List<FenceClient> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = prefix + "-" + i;
            FenceClient c = new FenceClient(id, managers.apply(id), url, name, stats);
            clients.add(c);
            Thread t = new Thread(c, id);
            t.setDaemon(true);
            c.thread = t;
            t.start();
        }
        return clients;
    }

    private Thread thread;

    /** Stops the clients and waits for each (bounded); returns the ones still running (hanging). */
    static List<String> stopAll(List<FenceClient> clients) throws InterruptedException {
        clients.forEach(FenceClient::stop);
        List<String> hanging = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.plus(SLACK).plusSeconds(5).toNanos();
        for (FenceClient c : clients) {
            c.thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (c.thread.isAlive()) {
                StringBuilder trace = new StringBuilder(c.id + " is still running:");
                for (StackTraceElement e : c.thread.getStackTrace()) {
                    trace.append("\n  at ").append(e);
                }
                hanging.add(trace.toString());
            }
            c.locks.close();
        }
        return hanging;
    }

    /**
     * A child JVM's clients. Args: {@code topology jdbcUrl lockName clients prefix}. Runs until a
     * line {@code stop} (or end of input) on stdin, then prints {@code RESULT k=v ...} and, if a client
     * hangs, {@code HANGING ...}.
     */
    public static void main(String[] args) throws Exception {
        String topology = args[0];
        Stats stats = new Stats();
        List<FenceClient> clients =
                startAll(args[4], Integer.parseInt(args[3]), id -> manager(topology, id), args[1], args[2], stats);
        System.out.println("STARTED");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            // wait for the parent
        }
        List<String> hanging = stopAll(clients);
        StringBuilder result = new StringBuilder("RESULT");
        stats.toMap().forEach((k, v) -> result.append(' ').append(k).append('=').append(v));
        System.out.println(result);
        stats.samples.forEach(s -> System.out.println("SAMPLE " + s));
        hanging.forEach(h -> System.out.println("HANGING " + h));
        System.out.flush();
        System.exit(0);
    }
}
