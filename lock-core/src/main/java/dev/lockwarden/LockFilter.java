package dev.lockwarden;

import java.util.Objects;

/**
 * Which locks {@link LockInspector#list} returns.
 *
 * @param namePrefix only names starting with this (empty = all)
 * @param application only locks held by this application (null = all)
 */
public record LockFilter(String namePrefix, String application) {
    public LockFilter {
        Objects.requireNonNull(namePrefix, "namePrefix (use \"\" for all locks)");
    }

    /** Every lock. */
    public static LockFilter all() {
        return new LockFilter("", null);
    }

    /** Locks whose name starts with {@code prefix}. */
    public static LockFilter prefix(String prefix) {
        return new LockFilter(prefix, null);
    }
}
