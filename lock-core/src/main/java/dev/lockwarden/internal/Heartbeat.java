package dev.lockwarden.internal;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.params.SetParams;

/**
 * Keeps {@code lockwarden:jvm:<id>} alive on every node while the manager runs, so the dashboard
 * can flag locks whose holder JVM is gone (orphans). Its thread does nothing else, so no listener
 * can delay a beat.
 */
public final class Heartbeat implements AutoCloseable {
    static final long PERIOD_MILLIS = 5_000;
    static final long TTL_MILLIS = 15_000;

    private final List<RedisNodeClient> nodes;
    private final String key;
    private final String value;
    private final ScheduledExecutorService executor;

    public Heartbeat(RedisDeployment redis, String jvmId, String value) {
        this.nodes = redis.nodes();
        this.key = KeySpace.jvmKey(jvmId);
        this.value = value;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockwarden-heartbeat");
            t.setDaemon(true);
            return t;
        });
        beat(); // synchronously once, so locks taken right after start-up already show a live holder
        executor.scheduleWithFixedDelay(this::beat, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void beat() {
        for (RedisNodeClient n : nodes) {
            try {
                n.redis().set(key, value, SetParams.setParams().px(TTL_MILLIS));
            } catch (RuntimeException e) {
                // the node is down: the lock paths report that; the heartbeat just tries again
            }
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        for (RedisNodeClient n : nodes) {
            try {
                n.redis().del(key);
            } catch (RuntimeException ignored) {
                // best effort: the key expires by itself
            }
        }
    }
}
