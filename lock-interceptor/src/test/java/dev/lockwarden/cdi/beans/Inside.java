package dev.lockwarden.cdi.beans;

import java.util.Optional;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;

/** What a @Locked body saw: the handle from LockContext and Locks, and the lock as Redis shows it. */
public record Inside(LockHandle fromContext, LockHandle fromLocks, boolean heldInside, long fenceInside,
                     Optional<LockInfo> info, String thread) {
}
