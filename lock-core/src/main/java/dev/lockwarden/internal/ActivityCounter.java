package dev.lockwarden.internal;

import dev.lockwarden.store.KeySpace;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * Per-application activity counts for the dashboard, kept off the hot path. It counts nothing itself:
 * lock calls bump {@link dev.lockwarden.metrics.LockMetrics}'s adders (one increment per event), and
 * a daemon thread reads those totals and adds what accrued since the last flush to the per-minute hash
 * {@code lockwarden:activity:<application>:<epochMinute>} in one pipelined {@code HINCRBY} batch
 * every {@value #FLUSH_MILLIS} ms (and once more on close). Best effort: a failed flush is retried
 * with the next one, logged once a minute at most, and never reaches a lock call.
 */
public final class ActivityCounter implements AutoCloseable {
    /** Hash fields, in the order of {@link Kind}. */
    public static final String[] FIELDS = {"acquired", "busy", "lost"};
    /** Five seconds: fresh enough for a dashboard that shows minutes, and one batch per 5 s per JVM costs Redis nothing. */
    static final long FLUSH_MILLIS = 5_000;
    /** An hour of history: the dashboard shows 15 minutes; older hashes expire by themselves. */
    static final long TTL_SECONDS = 3_600;

    private static final long WARN_EVERY_MILLIS = 60_000;
    private static final System.Logger LOG = System.getLogger(ActivityCounter.class.getName());

    private final UnifiedJedis redis;
    private final String keyPrefix;
    /** Running totals of acquired, busy and lost (in the order of {@link #FIELDS}); never decrease. */
    private final Supplier<long[]> totals;
    /** Flush and close never overlap (no monitor: the flush does Redis I/O). */
    private final ReentrantLock flushing = new ReentrantLock();
    /** Totals already written; only the flush thread (or close, after it stopped) touches them. */
    private final long[] flushed = new long[FIELDS.length];

    private final ScheduledExecutorService executor;
    private long lastWarn;

    public ActivityCounter(UnifiedJedis redis, String application, Supplier<long[]> totals) {
        this.redis = redis;
        this.totals = totals;
        this.keyPrefix = KeySpace.ACTIVITY_PREFIX + application + ":";
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockwarden-activity");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::flush, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Writes what accrued since the last flush; nothing at all when nothing happened. */
    void flush() {
        flushing.lock();
        try {
            flushLocked();
        } finally {
            flushing.unlock();
        }
    }

    private void flushLocked() {
        // totals minus what was written, so increments during a flush are never lost
        long[] now = totals.get();
        boolean any = false;
        for (int i = 0; i < FIELDS.length; i++) {
            any |= now[i] != flushed[i];
        }
        if (!any) {
            return;
        }
        String key = keyPrefix + TimeUnit.MILLISECONDS.toMinutes(System.currentTimeMillis());
        try (AbstractPipeline p = redis.pipelined()) {
            java.util.List<Response<Long>> replies = new java.util.ArrayList<>(FIELDS.length + 1);
            for (int i = 0; i < FIELDS.length; i++) {
                if (now[i] != flushed[i]) {
                    replies.add(p.hincrBy(key, FIELDS[i], now[i] - flushed[i]));
                }
            }
            replies.add(
                    p.pexpire(key, TTL_SECONDS * 1_000)); // PEXPIRE: the command the lock scripts' ACL grants already
            p.sync();
            replies.forEach(Response::get); // an error reply (e.g. WRONGTYPE) throws only here
            System.arraycopy(now, 0, flushed, 0, FIELDS.length);
        } catch (RuntimeException e) {
            long t = System.currentTimeMillis();
            if (t - lastWarn >= WARN_EVERY_MILLIS) { // the counts stay and go with the next flush
                lastWarn = t;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "could not write lock activity counts to " + key + " (retried in " + FLUSH_MILLIS
                                + " ms; locks are unaffected): " + e.getMessage());
            }
        }
    }

    /** Stops the flush thread, then flushes once more (before the connections close). */
    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
    }
}
