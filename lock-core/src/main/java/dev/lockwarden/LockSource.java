package dev.lockwarden;

/** Which entry point took a lock; shown on the dashboard. */
public enum LockSource {
    /** {@link LockManager} called directly. */
    API,
    /** The {@code @Locked} CDI interceptor. */
    CDI,
    /** The {@code -javaagent}. */
    AGENT,
    /** A ShedLock job through {@code lockwarden-shedlock}'s lock provider. */
    SHEDLOCK
}
