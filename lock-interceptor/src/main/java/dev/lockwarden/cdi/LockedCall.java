package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;
import dev.lockwarden.spi.LockedBody;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletionStage;

/**
 * Runs one intercepted call whose lock is already taken, and decides when the lock ends: at
 * return ({@link #sync}), after the JTA transaction ({@link #inTransaction}) or when the returned
 * stage completes ({@link #async}). A lock lost meanwhile is reported through {@link LockLoss}.
 */
final class LockedCall {

    private LockedCall() {}

    /** The transaction releases the lock after it completes, so others never see uncommitted work. */
    static Object inTransaction(InvocationContext ctx, LockHandle handle, LockLoss loss, TxBinder.Tx tx)
            throws Exception {
        java.util.function.Function<LockHandle, RuntimeException> rollBack = h -> {
            tx.setRollbackOnly();
            return loss.report(LockLostEvent.Outcome.ROLLED_BACK);
        };
        Object result;
        try {
            result = proceed(ctx, handle);
        } catch (Exception | Error e) {
            LockedBody.afterBody(handle, e, rollBack);
            throw e;
        }
        Throwable lost = LockedBody.afterBody(handle, null, rollBack);
        if (lost != null) {
            throw (RuntimeException) lost;
        }
        return result;
    }

    /** No transaction: released when the method returns; lost meanwhile = {@code LockLostException} after it. */
    static Object sync(InvocationContext ctx, LockHandle handle, LockLoss loss) throws Exception {
        try (handle) {
            Object result;
            try {
                result = proceed(ctx, handle);
            } catch (Exception | Error e) {
                LockedBody.afterBody(
                        handle, e, h -> loss.report(LockLostEvent.Outcome.THROWN)); // e stays the one thrown
                throw e;
            }
            Throwable lost = LockedBody.afterBody(handle, null, h -> loss.report(LockLostEvent.Outcome.THROWN));
            if (lost != null) {
                throw (RuntimeException) lost; // the body may have overlapped another holder
            }
            return result;
        }
    }

    /** Held until the returned stage completes; the context is popped when the method returns. */
    static Object async(InvocationContext ctx, LockHandle handle, LockLoss loss) throws Exception {
        Object stage;
        try {
            stage = proceed(ctx, handle);
        } catch (Exception | Error e) {
            handle.release(); // the method failed before handing out a stage: nothing runs on under the lock
            throw e;
        }
        if (stage == null) {
            handle.release();
            return null;
        }
        return AsyncHold.follow((CompletionStage<?>) stage, handle, loss);
    }

    /** Runs the method with its lock visible through {@link Locks#current()} on this thread. */
    private static Object proceed(InvocationContext ctx, LockHandle handle) throws Exception {
        Locks.push(new HeldLock(handle));
        try {
            return ctx.proceed();
        } finally {
            Locks.pop();
        }
    }
}
