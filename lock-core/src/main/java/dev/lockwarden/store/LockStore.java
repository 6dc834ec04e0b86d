package dev.lockwarden.store;

import java.util.List;

/**
 * The storage seam: single Redis node, Redlock over several nodes, or Redis Cluster. Busy is a
 * result, never an exception; an unreachable store is a {@link dev.lockwarden.LockStoreException}.
 * The nodes, key space and quorum of the deployment under it are a {@link RedisDeployment}'s job.
 */
public interface LockStore extends AutoCloseable {

    /**
     * One acquire attempt: SET NX PX + fence INCR + holder info, atomically. The wait for a free local
     * connection may last until {@code deadlineNanos} (the caller's wait budget), at least the Redis timeout;
     * a call that will wait for the lock ({@code waiter}) marks a busy lock as waited for, so the holder's
     * release sends the release message (a release nobody waits for sends none).
     *
     * @throws dev.lockwarden.LocalPoolBusyException if no connection became free by then
     */
    AcquireResult tryAcquire(Lease lease, LockHolder holder, long deadlineNanos, boolean waiter);

    /** One attempt that will not wait for the lock, with the Redis timeout as its connection budget. */
    default AcquireResult tryAcquire(Lease lease, LockHolder holder) {
        return tryAcquire(lease, holder, 0, false);
    }

    /** Token-checked delete that publishes a wake-up if a waiter marked the lock; true if the lock was still ours. */
    default boolean release(Lease lease) {
        return release(lease, 0);
    }

    /**
     * Token-checked release; {@code keepMillis > 0} (a holdAtLeast period not yet over) keeps lock
     * and holder info for that long instead of deleting them. True if the lock was still ours.
     */
    boolean release(Lease lease, long keepMillis);

    /**
     * {@link #release(Lease, long)} that runs {@code sent} once: where the store can promise that every later
     * call of this JVM on the lock reaches Redis after the release, as soon as the release is queued to go
     * and before Redis can have run it (before it is known whether the lock was still ours: {@code sent} then
     * wakes a local waiter one round trip earlier); otherwise after the reply, and only if the lock was still ours.
     * This release always sends the release message: this JVM's own waiter may not have marked the lock, and
     * the wake-up counting of {@code sent} expects the message to come back.
     */
    default boolean release(Lease lease, long keepMillis, Runnable sent) {
        boolean ours = release(lease, keepMillis);
        if (ours) {
            sent.run();
        }
        return ours;
    }

    /**
     * Token-checked release of many leases in one batch per node (shutdown); {@code keepMillis[i]} as
     * in {@link #release(Lease, long)}. True per lease that was still ours.
     */
    boolean[] releaseAll(List<Lease> leases, long[] keepMillis);

    /**
     * Token-checked explicit refresh setting the TTL to {@code lease.ttlMillis()}. Returns how long
     * the lock is known valid from the call's start (ms, drift not yet subtracted), or -1 if it is no
     * longer ours (on Redlock: no majority within the validity).
     */
    long extend(Lease lease);

    /** Token-checked TTL extension of many locks in one pipelined batch; true per lease still ours. */
    boolean[] refresh(List<Lease> leases);

    /**
     * {@link #refresh(List)} with an answer per lease: where nodes answer for their own leases (Redis
     * Cluster), a failed node leaves only its leases unconfirmed. Throws only if no lease could be confirmed
     * for one reason (as {@link #refresh(List)}).
     */
    default Refreshed refreshEach(List<Lease> leases) {
        return Refreshed.confirmed(refresh(leases));
    }

    /** Closes the store and the {@link RedisDeployment} it runs on. */
    @Override
    void close();
}
