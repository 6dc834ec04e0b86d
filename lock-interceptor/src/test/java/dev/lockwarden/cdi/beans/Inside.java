package dev.lockwarden.cdi.beans;

import java.util.Optional;

import dev.lockwarden.LockInfo;
import dev.lockwarden.cdi.CurrentLock;

/** What a @Locked body saw: the handle from LockContext and Locks, and the lock as Redis shows it. */
public record Inside(CurrentLock fromContext, CurrentLock fromLocks, boolean heldInside, long fenceInside,
                     Optional<LockInfo> info, String thread) {
}
