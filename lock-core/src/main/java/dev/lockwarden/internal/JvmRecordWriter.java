package dev.lockwarden.internal;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.AbstractPipeline;

/**
 * Writes this JVM's {@link JvmRecord} (application, host, pid) once on every node at start and
 * renews it from the acquire path about once an hour, so no lock has to carry those fields.
 * Best effort like the heartbeat: a node that is down gets it with the next renewal.
 */
final class JvmRecordWriter {
    private static final long RENEW_NANOS = TimeUnit.HOURS.toNanos(1);

    private final List<RedisNodeClient> nodes;
    private final String key;
    private final JvmRecord record;
    private final AtomicLong nextRenewal = new AtomicLong();

    JvmRecordWriter(List<RedisNodeClient> nodes, String jvmId, JvmRecord record) {
        this.nodes = nodes;
        this.key = JvmRecord.key(jvmId);
        this.record = record;
        write();
    }

    /** Called per acquire: one volatile read, and about once an hour a renewal on {@code executor}. */
    void touch(java.util.function.Consumer<Runnable> executor) {
        long due = nextRenewal.get();
        if (System.nanoTime() - due >= 0 && nextRenewal.compareAndSet(due, System.nanoTime() + RENEW_NANOS)) {
            executor.accept(this::write);
        }
    }

    private void write() {
        boolean all = true;
        for (RedisNodeClient n : nodes) {
            try (AbstractPipeline p = n.redis().pipelined()) {
                p.hset(key, record.fields());
                p.pexpire(key, JvmRecord.TTL_MILLIS);
                p.sync();
            } catch (RuntimeException e) {
                all = false; // down: the lock paths report that
            }
        }
        // a node missed it: try again within a minute rather than an hour
        nextRenewal.set(System.nanoTime() + (all ? RENEW_NANOS : TimeUnit.MINUTES.toNanos(1)));
    }
}
