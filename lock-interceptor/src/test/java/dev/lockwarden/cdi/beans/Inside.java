package dev.lockwarden.cdi.beans;

import dev.lockwarden.LockInfo;
import dev.lockwarden.cdi.CurrentLock;
import java.util.Optional;

/** What a @Locked body saw: the handle from LockContext and Locks, and the lock as Redis shows it. */
public record Inside(
        CurrentLock fromContext,
        CurrentLock fromLocks,
        boolean heldInside,
        long fenceInside,
        Optional<LockInfo> info,
        String thread) {}
