package dev.lockwarden;

/**
 * How many locks are held, as {@link LockInspector#count(java.time.Duration)} counted them.
 *
 * @param count    the held locks seen (over Redlock each lock once, whichever nodes hold it)
 * @param complete whether the whole key space was scanned within the budget: then {@code count} is the total;
 *                 otherwise the budget ran out and the total is at least {@code count}
 */
public record LockCount(long count, boolean complete) {}
