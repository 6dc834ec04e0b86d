package dev.lockwarden.internal;

import dev.lockwarden.store.Lease;
import dev.lockwarden.store.LockStore;
import dev.lockwarden.store.Refreshed;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * After a failover, whether the new master still has the locks taken with {@code autoRefresh(false)}. A plain
 * refresh would give them more time, so each is refreshed to the validity its handle has left, rounded up to
 * the millisecond: the key then expires no sooner than the handle stops reporting it held, and no later than
 * before by more than the drift margin. A check Redis did not answer (the client may still be switching to the
 * new master) is repeated every {@value #RETRY_MILLIS} ms until answered or the locks' validity runs out, as a
 * failed refresh of an auto-refresh lock is. Used by the watchdog's thread only.
 */
final class UnrefreshedCheck {
    static final long RETRY_MILLIS = 200;

    /** The failover still to check for, or null. */
    private String pending;

    private long retryAt;
    /** The failover the last check was for. */
    private String reason;

    /**
     * The handles among {@code watched} whose token Redis confirmed gone, checking now if {@code failover} is
     * not null (a new failover) or a retry is due; {@link #reason()} says why.
     */
    List<DefaultLockHandle> lost(LockStore store, Collection<DefaultLockHandle> watched, long now, String failover) {
        if (failover != null) {
            pending = failover;
        } else if (pending == null || now - retryAt < 0) {
            return List.of();
        }
        List<DefaultLockHandle> checked = new ArrayList<>();
        List<Lease> leases = new ArrayList<>();
        List<DefaultLockHandle> gone = new ArrayList<>();
        boolean doubt = false;
        try {
            for (DefaultLockHandle h : watched) {
                long left = h.validUntilNanos() - now;
                if (h.autoRefresh() || !h.isActive() || left <= 0) {
                    continue;
                }
                if (!h.renewal.tryLock()) {
                    doubt = true; // an extend() runs now (and would be undone by a shorter TTL): look again
                    continue;
                }
                checked.add(h);
                long millis = (left + TimeUnit.MILLISECONDS.toNanos(1) - 1) / TimeUnit.MILLISECONDS.toNanos(1);
                leases.add(h.lease().withTtl(millis));
            }
            Refreshed replies = null;
            try {
                replies = leases.isEmpty() ? null : store.refreshEach(leases);
            } catch (RuntimeException e) {
                doubt = true; // the handle's own validity still ends it in time; look again
            }
            for (int i = 0; replies != null && i < checked.size(); i++) {
                if (!replies.confirmed(i)) {
                    doubt = true;
                } else if (!replies.ours(i)) {
                    gone.add(checked.get(i));
                }
            }
        } finally {
            for (DefaultLockHandle h : checked) {
                h.renewal.unlock();
            }
        }
        reason = pending;
        if (doubt) {
            retryAt = now + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
        } else {
            pending = null;
        }
        return gone;
    }

    /** The failover the last check was for. */
    String reason() {
        return reason;
    }

    /** Nanos from {@code now} until a retry is due; {@link Long#MAX_VALUE} if none waits. */
    long dueIn(long now) {
        return pending == null ? Long.MAX_VALUE : Math.max(0, retryAt - now);
    }
}
