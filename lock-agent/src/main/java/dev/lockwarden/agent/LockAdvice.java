package dev.lockwarden.agent;

import dev.lockwarden.agent.bootstrap.LockBridge;
import net.bytebuddy.asm.Advice;

/**
 * Inlined around every lock-wrapped method. Stateless; references only the bootstrap
 * {@link LockBridge}, which every class loader can see. A {@link LockBridge.Skip} returned on entry
 * skips the body (SKIP policy, or a failure that exit throws into the caller).
 */
public final class LockAdvice {
    private LockAdvice() {
    }

    /** Takes the lock; returns the handle, or a {@link LockBridge.Skip}. */
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = LockBridge.Skip.class)
    public static Object enter(@BindingId int id, @Advice.AllArguments Object[] args) {
        return LockBridge.enter(id, args);
    }

    /** Releases the lock, also when the body threw; throws a FAIL policy's exception into the caller. */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object state, @Advice.Thrown(readOnly = false) Throwable thrown) {
        thrown = LockBridge.exit(state, thrown);
    }
}
