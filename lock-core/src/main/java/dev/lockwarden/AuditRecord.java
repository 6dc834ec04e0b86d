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
 * @param seal      what its MAC chain says ({@link Seal#UNCHECKED} when the reader holds no {@link AuditSigner})
 */
public record AuditRecord(
        String id,
        Instant at,
        String operator,
        String name,
        String oldHolder,
        long oldFence,
        long newFence,
        Seal seal) {

    /**
     * A record whose seal was not checked.
     *
     * @param id        stream entry id
     * @param at        when
     * @param operator  who released it
     * @param name      the lock
     * @param oldHolder the holder removed
     * @param oldFence  the removed holder's fence
     * @param newFence  the counter after the bump
     */
    public AuditRecord(
            String id, Instant at, String operator, String name, String oldHolder, long oldFence, long newFence) {
        this(id, at, operator, name, oldHolder, oldFence, newFence, Seal.UNCHECKED);
    }

    /** What a record's place in the MAC chain ({@link AuditSigner}) says. */
    public enum Seal {
        /** its MAC is the key's, and it follows the record before it */
        VALID,
        /** its MAC is the key's, but the record it names as previous is not the one before it: records are missing */
        GAP,
        /** it has a MAC the key did not make: altered, or written by someone without the key */
        BROKEN,
        /** it carries no MAC: not written by the dashboard (an application's force-release, or an older version) */
        UNSIGNED,
        /** not checked: the reader holds no key */
        UNCHECKED
    }
}
