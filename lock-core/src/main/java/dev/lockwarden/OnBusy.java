package dev.lockwarden;

/** What a declarative lock ({@code @Locked}, the agent) does when the lock stays busy. */
public enum OnBusy {
    /** Throw {@link LockNotAcquiredException}. */
    FAIL,
    /** Skip the method body and return {@code null} / the primitive default. */
    SKIP
}
