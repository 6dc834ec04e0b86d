package dev.lockwarden.store;

import dev.lockwarden.config.Durations;
import dev.lockwarden.config.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How many replicas must acknowledge a lock's write ({@code WAIT replicas timeout}) before it is handed out
 * or its refresh counts; {@link #OFF} (0 replicas) waits for none. Checked when built: replicas at least 0,
 * timeout positive.
 *
 * @param replicas      replicas that must acknowledge (0 = off)
 * @param timeoutMillis how long {@code WAIT} waits for them
 */
public record ReplicaAcks(int replicas, long timeoutMillis) {
    /** No replica acknowledgement (the default). */
    public static final ReplicaAcks OFF = new ReplicaAcks(0, 0);

    private static final String FORM = "replicas/timeout, e.g. 1/100ms (or off)";

    public ReplicaAcks {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicaAcks replicas " + replicas + " is negative: use 0 for off");
        }
        if (replicas > 0 && timeoutMillis <= 0) {
            throw new IllegalArgumentException("replicaAcks timeout " + timeoutMillis
                    + " ms must be positive (WAIT with 0 would block until the replicas answer)");
        }
    }

    /**
     * Checked values from the API: {@code replicas >= 0}, {@code timeout > 0} (also when off), whole millis.
     *
     * @param what who set them, for the message (e.g. "LockManager.Builder.replicaAcks")
     */
    public static ReplicaAcks of(int replicas, Duration timeout, String what) {
        Objects.requireNonNull(timeout, what + " timeout is null: pass e.g. Duration.ofMillis(100)");
        if (replicas < 0) {
            throw new IllegalArgumentException(what + " replicas " + replicas + " is negative: use 0 for off");
        }
        if (timeout.toMillis() <= 0) {
            throw new IllegalArgumentException(what + " timeout " + timeout
                    + " must be at least 1 ms, e.g. Duration.ofMillis(100) (replicas = 0 switches it off)");
        }
        return replicas == 0 ? OFF : new ReplicaAcks(replicas, timeout.toMillis());
    }

    /**
     * The setting {@link Settings#REPLICA_ACKS} ({@code 1/100ms}, {@code off}, {@code 0}), if set.
     *
     * @throws IllegalArgumentException naming where it was set and the form expected
     */
    public static Optional<ReplicaAcks> fromSettings(Settings settings) {
        return settings.raw(Settings.REPLICA_ACKS).map(s -> parse(s.value(), s.where()));
    }

    /**
     * A manager's default: {@code explicit} (the builder's, or null) else the setting, else {@link #OFF}; checked
     * against the topology, the default TTL and the Redis timeout, every message naming where it was set.
     */
    public static ReplicaAcks resolve(
            ReplicaAcks explicit,
            Settings settings,
            StoreFactory.Topology topology,
            Duration defaultTtl,
            Duration redisTimeout) {
        String where = explicit != null
                ? "LockManager.Builder.replicaAcks"
                : settings.raw(Settings.REPLICA_ACKS)
                        .map(Settings.Source::where)
                        .orElse("");
        ReplicaAcks acks = explicit != null ? explicit : fromSettings(settings).orElse(OFF);
        if (!acks.on()) {
            return OFF;
        }
        acks.checkSupportedOn(topology, where);
        if (acks.timeoutMillis() >= defaultTtl.toMillis()) {
            throw new IllegalArgumentException(where + ": replicaAcks timeout " + acks.timeoutMillis()
                    + " ms is not shorter than the default ttl " + defaultTtl + ": shorten the timeout");
        }
        if (acks.timeoutMillis() >= redisTimeout.toMillis()) {
            throw new IllegalArgumentException(where + ": replicaAcks timeout " + acks.timeoutMillis()
                    + " ms is not shorter than the Redis timeout " + redisTimeout.toMillis()
                    + " ms: the read would give up before WAIT answers; shorten it or raise the timeout");
        }
        return acks;
    }

    /**
     * Refuses replica acknowledgement where Lockwarden does not wait for replicas: Redlock (its quorum of
     * independent masters already covers a failed node). A single node, Sentinel and Redis Cluster (each lock
     * waits on the connection of its slot's master) support it.
     *
     * @param who who asked, for the message
     */
    public void checkSupportedOn(StoreFactory.Topology topology, String who) {
        if (on() && topology == StoreFactory.Topology.REDLOCK) {
            throw new IllegalArgumentException(who + " asks for replica acknowledgement (" + this
                    + "), which Redlock does not use: its quorum of independent masters already covers a"
                    + " failed node (a lock is handed out only when a majority holds it). Remove replicaAcks,"
                    + " or use redis(...) on a master with replicas");
        }
    }

    /** {@code replicas/timeout} as in {@code 1/100ms}; {@code off} or {@code 0} = {@link #OFF}. */
    public static ReplicaAcks parse(String text, String where) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("off") || t.equals("0")) {
            return OFF;
        }
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException(where + " = '" + text + "' is not " + FORM);
        }
        int replicas;
        try {
            replicas = Integer.parseInt(t.substring(0, slash).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + " = '" + text + "': '" + t.substring(0, slash)
                    + "' is not a number of replicas; write " + FORM);
        }
        Duration timeout = Durations.parse(t.substring(slash + 1), where + " (the timeout after '/')");
        try {
            return of(replicas, timeout, where + " = '" + text + "':");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; write " + FORM, e);
        }
    }

    /** True if replicas must acknowledge. */
    public boolean on() {
        return replicas > 0;
    }

    /**
     * What a batch of leases waits for: the most replicas any of them asks, within the shortest timeout any
     * of them gives (each lease then counts as acknowledged if at least its own replicas answered).
     */
    static ReplicaAcks strictest(List<Lease> leases) {
        int replicas = 0;
        long timeout = Long.MAX_VALUE;
        for (Lease l : leases) {
            if (l.acks().on()) {
                replicas = Math.max(replicas, l.acks().replicas());
                timeout = Math.min(timeout, l.acks().timeoutMillis());
            }
        }
        return replicas == 0 ? OFF : new ReplicaAcks(replicas, timeout);
    }

    /** E.g. "1 replica asked, 0 acknowledged within 100 ms". */
    String shortfall(long acknowledged) {
        return replicas + (replicas == 1 ? " replica" : " replicas") + " asked, " + acknowledged
                + " acknowledged within " + timeoutMillis + " ms";
    }

    @Override
    public String toString() {
        return on() ? replicas + "/" + timeoutMillis + "ms" : "off";
    }
}
