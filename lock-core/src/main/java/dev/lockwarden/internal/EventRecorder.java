package dev.lockwarden.internal;

import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.XAddParams;

/**
 * Writes the rare lock events (lost, late release) to the capped {@code lockwarden:events} stream and
 * to the lock's own capped history (where the dashboard's lock detail reads them) off the hot path:
 * callers only enqueue; one daemon thread sends them in pipelined batches. Acquire and release are
 * not sent from here: release.lua appends each cycle to the lock's history in the release call
 * itself. When Redis is down or the queue is full, events are dropped rather than slowing locks down;
 * a WARNING (at most one a minute) says how many were dropped so far.
 */
public final class EventRecorder implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EventRecorder.class.getName());
    private static final int BATCH = 512;

    private final UnifiedJedis redis;
    private final long maxLen;
    private final long historyRetentionMillis;
    private final Map<String, String> common;
    /** Queued events at most (a few MB): bounds memory while Redis is down; a burst of ~10k locks/s fits. */
    private final java.util.function.UnaryOperator<String> historyKey;

    private static final int CAPACITY = 10_000;
    /** How long events linger before a batch is sent: callers never wake the recorder thread. */
    private static final long LINGER_MILLIS = 100;

    private final Queue<Map<String, String>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;
    private volatile long lastWarn;

    /**
     * @param common fields added to every event (application, jvm)
     * @param maxLen approximate cap of the stream ({@code MAXLEN ~})
     */
    public EventRecorder(
            RedisDeployment deployment, Map<String, String> common, long maxLen, long historyRetentionMillis) {
        this.redis = deployment.first().redis(); // every client writes its events to the first node
        this.historyKey = deployment.first().keySpace()::history;
        this.common = Map.copyOf(common);
        this.maxLen = maxLen;
        this.historyRetentionMillis = historyRetentionMillis;
        this.thread = new Thread(this::run, "lockwarden-events");
        thread.setDaemon(true);
        thread.start();
    }

    /** Enqueues one event; never blocks. */
    public void record(String type, String name, long fence, String... extra) {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("type", type);
        e.put("name", name);
        e.put("fence", Long.toString(fence));
        e.put("at", Long.toString(System.currentTimeMillis()));
        e.putAll(common);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            e.put(extra[i], extra[i + 1]);
        }
        if (queued.incrementAndGet() > CAPACITY) {
            queued.decrementAndGet();
            dropped.incrementAndGet();
            warnDropped("the queue is full (" + CAPACITY + " events)");
            return;
        }
        queue.add(e);
    }

    /** At most one WARNING a minute, with the running total: events are best effort, locks are unaffected. */
    private void warnDropped(String why) {
        long now = System.currentTimeMillis();
        if (now - lastWarn > 60_000) {
            lastWarn = now;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "lock events dropped (" + dropped.get() + " so far; locks are unaffected): " + why);
        }
    }

    private void run() {
        List<Map<String, String>> batch = new ArrayList<>(BATCH);
        while (!closed || !queue.isEmpty()) {
            if (queue.isEmpty()) {
                try {
                    Thread.sleep(LINGER_MILLIS);
                } catch (InterruptedException e) {
                    // closing: flush what is left
                }
                continue;
            }
            Map<String, String> e;
            while (batch.size() < BATCH && (e = queue.poll()) != null) {
                queued.decrementAndGet();
                batch.add(e);
            }
            send(batch);
            batch.clear();
        }
    }

    private void send(List<Map<String, String>> batch) {
        try (AbstractPipeline p = redis.pipelined()) {
            XAddParams params = XAddParams.xAddParams().maxLen(maxLen).approximateTrimming();
            XAddParams history =
                    XAddParams.xAddParams().maxLen(KeySpace.HISTORY_MAX_LEN).approximateTrimming();
            for (Map<String, String> e : batch) {
                p.xadd(KeySpace.EVENTS, params, e);
                // and into the lock's own history, with the same expiry as the cycles release.lua writes there
                String key = historyKey.apply(e.get("name"));
                p.xadd(key, history, e);
                p.pexpire(key, historyRetentionMillis);
            }
            p.sync();
        } catch (RuntimeException e) {
            dropped.addAndGet(batch.size());
            warnDropped("could not write " + batch.size() + " to " + KeySpace.EVENTS + " and the locks' histories: "
                    + e.getMessage());
        }
    }

    /** Flushes what is queued (bounded wait) and stops. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt(); // cut the linger short: flush now
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
