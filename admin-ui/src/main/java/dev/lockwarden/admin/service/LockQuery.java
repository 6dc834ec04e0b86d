package dev.lockwarden.admin.service;

import dev.lockwarden.LockFilter;

/**
 * What the operator filters by.
 *
 * @param namePrefix  lock names starting with this ("" = all)
 * @param application exact application name ("" = all)
 */
public record LockQuery(String namePrefix, String application) {
    public LockQuery {
        namePrefix = namePrefix == null ? "" : namePrefix.strip();
        application = application == null ? "" : application.strip();
    }

    /** Every lock. */
    public static LockQuery all() {
        return new LockQuery("", "");
    }

    LockFilter toFilter() {
        return new LockFilter(namePrefix, application.isEmpty() ? null : application);
    }
}
