package dev.lockwarden.admin.service;

import dev.lockwarden.LockFilter;
import dev.lockwarden.LockSource;

/**
 * What the operator filters by; the inspector applies it while scanning.
 *
 * @param namePrefix   lock names starting with this ("" = all)
 * @param application  exact application name ("" = all)
 * @param source       entry point (null = all)
 * @param orphanedOnly only locks whose holder JVM is gone
 */
public record LockQuery(String namePrefix, String application, LockSource source, boolean orphanedOnly) {
    public LockQuery {
        namePrefix = namePrefix == null ? "" : namePrefix.strip();
        application = application == null ? "" : application.strip();
    }

    public LockQuery(String namePrefix, String application) {
        this(namePrefix, application, null, false);
    }

    /** Every lock. */
    public static LockQuery all() {
        return new LockQuery("", "");
    }

    LockFilter toFilter() {
        return new LockFilter(namePrefix, application.isEmpty() ? null : application, source, orphanedOnly);
    }
}
