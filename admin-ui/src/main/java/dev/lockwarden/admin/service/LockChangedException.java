package dev.lockwarden.admin.service;

/**
 * A force-release was refused because the lock is no longer the one the operator confirmed
 * (released, or taken by another holder with a newer fence).
 */
public final class LockChangedException extends RuntimeException {
    public LockChangedException(String message) {
        super(message);
    }
}
