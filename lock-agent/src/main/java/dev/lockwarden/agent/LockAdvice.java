package dev.lockwarden.agent;

import dev.lockwarden.agent.bootstrap.LockBridge;
import net.bytebuddy.asm.Advice;

/**
 * Inlined around every lock-wrapped method. Stateless; references only the bootstrap {@link LockBridge}, which
 * every delegating class loader can see. A {@link LockBridge.Skip} returned on entry skips the body (SKIP policy,
 * or a failure that exit throws into the caller). Entry deliberately does not suppress exceptions: if the lock
 * cannot even be asked for, the call fails instead of running unlocked.
 */
public final class LockAdvice {
    private LockAdvice() {}

    /**
     * Takes the lock; returns the handle, or a {@link LockBridge.Skip}. {@code unreachable} is the message a call
     * fails with if the class loader cannot see the bridge after all (bound as a constant per method, as the id is).
     */
    @Advice.OnMethodEnter(skipOn = LockBridge.Skip.class)
    public static Object enter(@BindingId int id, @Advice.AllArguments Object[] args, @FailMessage String unreachable) {
        try {
            return LockBridge.enter(id, args);
        } catch (LinkageError e) {
            throw new IllegalStateException(unreachable, e);
        }
    }

    /** Releases the lock, also when the body threw; throws a FAIL policy's exception into the caller. */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object state, @Advice.Thrown(readOnly = false) Throwable thrown) {
        thrown = LockBridge.exit(state, thrown);
    }
}
