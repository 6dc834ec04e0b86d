package dev.lockwarden.agent;

import net.bytebuddy.asm.Advice;

/**
 * Woven instead of {@link LockAdvice} into a configured method whose class loader cannot see the bootstrap bridge:
 * every call fails with the message bound at instrumentation time (JDK types only), so the method never runs
 * unlocked.
 */
public final class UnreachableAdvice {
    private UnreachableAdvice() {}

    /** Throws the bound message before the body runs. */
    @Advice.OnMethodEnter
    public static void enter(@FailMessage String message) {
        if (message != null) {
            throw new IllegalStateException(message);
        }
    }
}
