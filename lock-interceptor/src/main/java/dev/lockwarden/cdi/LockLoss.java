package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Reports that one invocation's lock was lost: builds the {@link LockLostException} naming the
 * method and fires the {@link LockLostEvent} — once per invocation, whichever path notices first.
 */
final class LockLoss {
    private static final System.Logger LOG = System.getLogger(LockLoss.class.getName());

    private final String method;
    private final LockHandle handle;
    private final Consumer<LockLostEvent> events;
    private final AtomicBoolean fired = new AtomicBoolean();

    LockLoss(String method, LockHandle handle, Consumer<LockLostEvent> events) {
        this.method = method;
        this.handle = handle;
        this.events = events;
    }

    /** Fires the event (once) and returns the exception to throw or to complete a stage with. */
    LockLostException report(LockLostEvent.Outcome outcome) {
        LockLostException e = new LockedLostException(
                handle.name(),
                "it was lost while @Locked method " + method
                        + " ran (expired, force-released or a refresh failed), so the method may have overlapped another holder"
                        + (outcome == LockLostEvent.Outcome.ROLLED_BACK
                                ? "; its transaction was marked rollback-only"
                                : "")
                        + ". Guard its writes with LockContext.current().fencingToken(), keep autoRefresh on, or raise @Locked(ttl)");
        String reason = "lost";
        try {
            handle.checkHeld();
        } catch (LockLostException why) {
            e.initCause(why);
            reason = why.getMessage();
        }
        if (fired.compareAndSet(false, true)) {
            try {
                events.accept(new LockLostEvent(
                        handle.name(), handle.fencingToken(), method, outcome, reason, Instant.now()));
            } catch (RuntimeException observer) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "an observer of LockLostEvent for lock '" + handle.name() + "' threw",
                        observer);
            }
        }
        return e;
    }
}
