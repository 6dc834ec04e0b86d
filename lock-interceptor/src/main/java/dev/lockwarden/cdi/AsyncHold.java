package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.spi.LockedBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The lock of a method returning {@code CompletionStage}: held until the stage completes, then
 * released from whichever thread completed it.
 */
final class AsyncHold {
    private static final System.Logger LOG = System.getLogger(AsyncHold.class.getName());

    private AsyncHold() {}

    /**
     * Acquires on a fresh thread that takes no other lock: the handle then belongs to no application
     * thread, so per-thread reentrancy cannot hand a nested handle to a later call (on the caller's
     * thread) while this stage still runs. An outer {@code @Locked} call of the caller for the same
     * name is therefore not reentrant here: the inner acquire sees the lock as busy.
     */
    static LockHandle acquire(LockManager locks, String name, LockOptions options) {
        CompletableFuture<LockHandle> taken = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try {
                        taken.complete(locks.acquire(name, options));
                    } catch (Throwable e) {
                        taken.completeExceptionally(e);
                    }
                },
                "lockwarden-async-acquire");
        t.setDaemon(true);
        t.start();
        try {
            return taken.join(); // not interruptible: an abandoned acquire could leave a lock nobody releases
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /**
     * The stage handed to the caller: completes like {@code stage}, after the lock is released. A lock
     * lost before {@code stage} completed is reported by the rule every entry point shares
     * ({@link LockedBody#afterBody}): the stage fails with the {@code LockLostException}, or, if
     * {@code stage} failed itself, with that failure and the loss added to it.
     */
    static CompletableFuture<Object> follow(CompletionStage<?> stage, LockHandle handle, LockLoss loss) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            Throwable thrown =
                    failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
            Throwable outcome =
                    LockedBody.afterBody(handle, thrown, h -> loss.report(LockLostEvent.Outcome.STAGE_FAILED));
            try {
                handle.release();
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "release of lock '" + handle.name() + "' failed; it expires with its TTL",
                        e);
            }
            if (outcome != null) {
                result.completeExceptionally(outcome);
            } else {
                result.complete(value);
            }
        });
        return result;
    }
}
