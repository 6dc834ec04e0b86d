package dev.lockwarden.cdi;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Injectable access to the lock held by the current {@link Locked @Locked} invocation.
 *
 * <pre>{@code
 * @Inject LockContext lock;
 *
 * @Locked("account:{0}")
 * public void debit(String account, long cents) {
 *     ledger.write(account, cents, lock.current().fencingToken());   // storage rejects stale fences
 * }
 * }</pre>
 */
@ApplicationScoped
public class LockContext {

    /**
     * The innermost lock held by a {@code @Locked} method running on this thread.
     *
     * @return the innermost lock
     * @throws IllegalStateException outside a {@code @Locked} invocation
     */
    public CurrentLock current() {
        return Locks.current();
    }
}
