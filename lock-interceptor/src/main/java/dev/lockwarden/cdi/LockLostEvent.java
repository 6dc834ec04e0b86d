package dev.lockwarden.cdi;

import java.time.Instant;

/**
 * CDI event fired once for every {@link Locked @Locked} invocation whose lock was lost while it
 * ran (expired, force-released from the dashboard, or a refresh failed), so applications can alert:
 *
 * <pre>{@code
 * void alert(@Observes LockLostEvent lost) { pager.send(lost.lockName() + " lost in " + lost.method()); }
 * }</pre>
 *
 * Observers run synchronously on the thread that noticed the loss; an observer's exception is
 * logged, never thrown to the caller of the {@code @Locked} method. Not to be confused with the
 * core {@link dev.lockwarden.LockLostEvent} given to {@code LockHandle.onLost} listeners.
 *
 * @param lockName     the lock
 * @param fencingToken the fence the invocation held (now stale)
 * @param method       {@code com.x.Billing#charge}
 * @param outcome      what the interceptor did about it
 * @param reason       why the lock is no longer held
 * @param at           when the interceptor noticed
 */
public record LockLostEvent(
        String lockName, long fencingToken, String method, Outcome outcome, String reason, Instant at) {

    /** What the interceptor did when it found the lock lost. */
    public enum Outcome {
        /** No transaction: {@code LockLostException} was thrown to the caller after the method. */
        THROWN,
        /** A JTA transaction was active: it was marked rollback-only, so its work is undone. */
        ROLLED_BACK,
        /** Asynchronous method: its returned stage completed exceptionally with {@code LockLostException}. */
        STAGE_FAILED
    }
}
