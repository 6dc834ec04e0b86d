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
 * before by more than the drift margin.
 */
final class UnrefreshedCheck {
    private UnrefreshedCheck() {}

    /** The handles among {@code watched} whose token Redis confirmed gone; a failed call confirms nothing. */
    static List<DefaultLockHandle> lost(LockStore store, Collection<DefaultLockHandle> watched, long now) {
        List<DefaultLockHandle> checked = new ArrayList<>();
        List<Lease> leases = new ArrayList<>();
        List<DefaultLockHandle> gone = new ArrayList<>();
        try {
            for (DefaultLockHandle h : watched) {
                long left = h.validUntilNanos() - now;
                // an extend() running now checks the token itself (and would be undone by a shorter TTL)
                if (h.autoRefresh() || !h.isActive() || left <= 0 || !h.renewal.tryLock()) {
                    continue;
                }
                checked.add(h);
                long millis = (left + TimeUnit.MILLISECONDS.toNanos(1) - 1) / TimeUnit.MILLISECONDS.toNanos(1);
                leases.add(h.lease().withTtl(millis));
            }
            if (leases.isEmpty()) {
                return gone;
            }
            Refreshed replies;
            try {
                replies = store.refreshEach(leases);
            } catch (RuntimeException e) {
                return gone; // in doubt: the handle's own validity still ends it in time
            }
            for (int i = 0; i < checked.size(); i++) {
                if (replies.confirmed(i) && !replies.ours(i)) {
                    gone.add(checked.get(i));
                }
            }
            return gone;
        } finally {
            for (DefaultLockHandle h : checked) {
                h.renewal.unlock();
            }
        }
    }
}
