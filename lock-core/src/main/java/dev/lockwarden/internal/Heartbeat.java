package dev.lockwarden.internal;

import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.params.SetParams;

/**
 * Keeps {@code lockwarden:jvm:<id>} alive on every node while the manager runs, so the dashboard
 * can flag locks whose holder JVM is gone (orphans), and list the client JVMs with their versions.
 * Each beat also rewrites this JVM's {@link JvmRecord} (application, host, pid, which no lock
 * carries) in the same pipelined round trip: so it is renewed with no work on the acquire path, and
 * a node that lost its data (restart without persistence, FLUSHALL) has it back within one period.
 * Its thread does nothing else, so no listener can delay a beat.
 *
 * <p>The value is {@code application@host:pid}, then one {@code key=value} line each for the
 * Lockwarden version ({@code lockwarden=}) and the Java version ({@code java=}); {@link #parse} reads it.
 */
public final class Heartbeat implements AutoCloseable {
    static final long PERIOD_MILLIS = 5_000;
    static final long TTL_MILLIS = 15_000;
    /** This client's Lockwarden version, from the Maven-filtered {@code version.properties}. */
    public static final String VERSION = readVersion();

    private final List<RedisNodeClient> nodes;
    private final String key;
    private final String value;
    private final String recordKey;
    private final java.util.Map<String, String> recordFields;
    private final ScheduledExecutorService executor;

    /**
     * Beats once before returning, then every {@value #PERIOD_MILLIS} ms.
     *
     * @param redis  the nodes to beat on
     * @param jvmId  this manager's JVM id
     * @param record who this JVM is: the heartbeat's first line and the longer-lived per-JVM record
     */
    public Heartbeat(RedisDeployment redis, String jvmId, JvmRecord record) {
        this.nodes = redis.nodes();
        this.key = KeySpace.jvmKey(jvmId);
        this.value = record.application() + "@" + record.host() + ":" + record.pid() + "\nlockwarden=" + VERSION
                + "\njava=" + System.getProperty("java.version", "");
        this.recordKey = JvmRecord.key(jvmId);
        this.recordFields = record.fields();
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockwarden-heartbeat");
            t.setDaemon(true);
            return t;
        });
        beat(); // synchronously once, so locks taken right after start-up already show a live holder
        executor.scheduleWithFixedDelay(this::beat, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** A heartbeat value as written by {@link Heartbeat}; version fields are "" when absent. */
    public record Beat(String application, String host, long pid, String version, String javaVersion) {}

    /** Parses a heartbeat value; never fails (a value from an older client lacks the version lines). */
    public static Beat parse(String value) {
        String[] lines = value.split("\n");
        String v = lines[0];
        int at = v.lastIndexOf('@');
        int colon = v.lastIndexOf(':');
        String app = at < 0 ? v : v.substring(0, at);
        String host = at < 0 || colon < at ? "" : v.substring(at + 1, colon);
        long pid = 0;
        if (colon > at) {
            try {
                pid = Long.parseLong(v.substring(colon + 1));
            } catch (NumberFormatException e) {
                // unknown pid
            }
        }
        String version = "";
        String java = "";
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith("lockwarden=")) {
                version = lines[i].substring("lockwarden=".length());
            } else if (lines[i].startsWith("java=")) {
                java = lines[i].substring("java=".length());
            }
        }
        return new Beat(app, host, pid, version, java);
    }

    private static String readVersion() {
        Properties p = new Properties();
        try (InputStream in = Heartbeat.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown"; // only shown on the dashboard: no reason to stop a LockManager
        }
        String v = p.getProperty("version", "");
        // unfiltered (e.g. copied by an IDE): say so rather than show a placeholder
        return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    }

    private void beat() {
        for (RedisNodeClient n : nodes) {
            try (AbstractPipeline p = n.redis().pipelined()) {
                p.set(key, value, SetParams.setParams().px(TTL_MILLIS));
                p.hset(recordKey, recordFields);
                p.pexpire(recordKey, JvmRecord.TTL_MILLIS);
                p.sync();
            } catch (RuntimeException e) {
                // the node is down: the lock paths report that; the heartbeat just tries again
            }
        }
    }

    /** Stops beating and deletes the heartbeat; the per-JVM record stays (it shows who held a lock left behind). */
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
