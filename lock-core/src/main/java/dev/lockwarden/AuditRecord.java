package dev.lockwarden;

import java.time.Instant;

/**
 * One force-release in the {@code lockwarden:audit} stream.
 *
 * @param id        stream entry id
 * @param at        when (the operator's dashboard clock)
 * @param operator  who released it
 * @param name      the lock
 * @param oldHolder the holder removed ({@code application @ host, pid N})
 * @param oldFence  the removed holder's fence
 * @param newFence  the counter after the bump
 */
public record AuditRecord(
        String id, Instant at, String operator, String name, String oldHolder, long oldFence, long newFence) {}
