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
    /**
     * Checks the prefix is given ("" for all locks).
     *
     * @param namePrefix   only names starting with this (empty = all); narrows the SCAN pattern itself
     * @param application  only locks held by this application (null = all)
     * @param source       only locks taken through this entry point (null = all)
     * @param orphanedOnly only locks whose holder JVM's heartbeat is gone
     */
    public LockFilter {
        Objects.requireNonNull(namePrefix, "namePrefix (use \"\" for all locks)");
    }

    /**
     * By name prefix and application only.
     *
     * @param namePrefix  only names starting with this (empty = all)
     * @param application only locks held by this application (null = all)
     */
    public LockFilter(String namePrefix, String application) {
        this(namePrefix, application, null, false);
    }

    /** {@return a filter matching every lock} */
    public static LockFilter all() {
        return new LockFilter("", null);
    }

    /**
     * @param prefix lock name prefix
     * @return a filter matching the locks whose name starts with {@code prefix}
     */
    public static LockFilter prefix(String prefix) {
        return new LockFilter(prefix, null);
    }

    /**
     * @param lock a lock read from Redis
     * @return whether it matches the criteria other than the prefix (the SCAN pattern applies that)
     */
    public boolean matches(LockInfo lock) {
        return (application == null || application.equals(lock.holder().application()))
                && (source == null || source == lock.source())
                && (!orphanedOnly || !lock.holderAlive());
    }
}
