package dev.lockwarden;

/**
 * Outcome of {@link LockInspector#forceRelease}.
 *
 * @param name       the lock
 * @param released   whether a holder was removed (false if the lock was already free)
 * @param oldFence   fencing token of the removed holder (0 if none)
 * @param newFence   the fence counter after the bump: every write fenced with {@code oldFence} is now stale
 * @param auditId    id of the audit record in {@code lockwarden:audit} (null if nothing was released)
 */
public record ForceReleaseResult(String name, boolean released, long oldFence, long newFence, String auditId) {}
