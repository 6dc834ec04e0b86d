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

    /** Takes the lock; returns the handle, or a {@link LockBridge.Skip}. */
    @Advice.OnMethodEnter(skipOn = LockBridge.Skip.class)
    public static Object enter(
            @BindingId int id, @Advice.AllArguments Object[] args, @Advice.Origin("#t#m") String method) {
        try {
            return LockBridge.enter(id, args);
        } catch (LinkageError unreachable) {
            throw new IllegalStateException(
                    "lockwarden-agent: " + method + " is lock-wrapped but its class loader cannot"
                            + " see dev.lockwarden.agent.bootstrap.LockBridge, so it does not run unlocked — let the loader delegate"
                            + " that package to the boot loader (JBoss: -Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap;"
                            + " OSGi: org.osgi.framework.bootdelegation=dev.lockwarden.agent.bootstrap)",
                    unreachable);
        }
    }

    /** Releases the lock, also when the body threw; throws a FAIL policy's exception into the caller. */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object state, @Advice.Thrown(readOnly = false) Throwable thrown) {
        thrown = LockBridge.exit(state, thrown);
    }
}
