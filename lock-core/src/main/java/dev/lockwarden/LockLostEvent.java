package dev.lockwarden;

import java.time.Instant;

/**
 * Delivered to {@link LockHandle#onLost} listeners when a held lock is lost.
 *
 * @param lockName     the lock
 * @param fencingToken the fencing token the handle held (now stale)
 * @param reason       human-readable cause, e.g. "force-released" or "refresh failed: ..."
 * @param at           when the loss was detected
 */
public record LockLostEvent(String lockName, long fencingToken, String reason, Instant at) {}
