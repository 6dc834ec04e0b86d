package dev.lockwarden.admin.service;

/** The logged-in user's role does not allow the action. */
public final class AccessDeniedException extends RuntimeException {
    public AccessDeniedException(String message) {
        super(message);
    }
}
