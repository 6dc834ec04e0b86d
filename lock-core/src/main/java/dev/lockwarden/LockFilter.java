package dev.lockwarden;

import java.util.Objects;

/**
 * Which locks {@link LockInspector#list} returns. Every criterion is applied by the inspector while
 * it scans, batch by batch, so a page never needs all locks in memory.
 *
 * @param namePrefix   only names starting with this (empty = all); narrows the SCAN pattern itself
 * @param application  only locks held by this application (null = all)
 * @param source       only locks taken through this entry point (null = all)
 * @param orphanedOnly only locks whose holder JVM's heartbeat is gone
 */
public record LockFilter(String namePrefix, String application, LockSource source, boolean orphanedOnly) {
    public LockFilter {
        Objects.requireNonNull(namePrefix, "namePrefix (use \"\" for all locks)");
    }

    /** By name prefix and application only. */
    public LockFilter(String namePrefix, String application) {
        this(namePrefix, application, null, false);
    }

    /** Every lock. */
    public static LockFilter all() {
        return new LockFilter("", null);
    }

    /** Locks whose name starts with {@code prefix}. */
    public static LockFilter prefix(String prefix) {
        return new LockFilter(prefix, null);
    }

    /** Whether a lock read from Redis matches the criteria other than the prefix. */
    public boolean matches(LockInfo lock) {
        return (application == null || application.equals(lock.holder().application()))
                && (source == null || source == lock.source())
                && (!orphanedOnly || !lock.holderAlive());
    }
}
