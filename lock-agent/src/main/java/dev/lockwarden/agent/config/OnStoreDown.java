package dev.lockwarden.agent.config;

/** What a rule does when Redis cannot be reached. */
public enum OnStoreDown {
    /** The call fails with {@code LockStoreException}; the body does not run. */
    FAIL,
    /** Only with {@code onBusy=SKIP}: the body does not run and the method returns its default value. */
    SKIP
}
