package dev.lockwarden;

import java.time.Instant;

/**
 * What one application's clients did with locks in one minute, from {@link LockInspector#activity}.
 *
 * @param application   the {@code LockManager}'s application name
 * @param minute        start of the minute (UTC, whole minute)
 * @param acquired      locks acquired
 * @param busy          busy answers (contention): attempts that ended without the lock
 * @param lost          held locks lost (expired, force-released, refresh failed)
 * @param forceReleased locks of this application an operator force-released (from the audit log)
 */
public record ActivityCount(
        String application, Instant minute, long acquired, long busy, long lost, long forceReleased) {}
