package dev.lockwarden.agent.config;

/** What a rule does when its lock was lost while the method ran (TTL passed without refresh, force-release). */
public enum OnLost {
    /** Log a WARNING with lock name, fencing token and method; the caller gets the method's own result. */
    LOG,
    /** Throw {@code LockLostException} into the caller after the method returned (the work is already done). */
    THROW,
    /**
     * Interrupt the thread running the method as soon as the loss is known (at once for a force-release, else at the
     * next refresh), then throw {@code LockLostException} (added to the method's own failure, if it threw).
     */
    INTERRUPT
}
