package dev.lockwarden;

import java.time.Duration;

/**
 * A lock's fencing counter, held or free (see {@link LockInspector#fences}).
 *
 * @param name      lock name
 * @param value     the last fencing token handed out
 * @param retention how long the counter is kept without another acquire (extended on each one)
 * @param held      whether the lock is held right now
 */
public record FenceCounter(String name, long value, Duration retention, boolean held) {}
