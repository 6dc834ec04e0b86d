package dev.lockwarden.cdi.tx;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** A @Transactional caller of a @Locked method, and a method with both annotations. */
@ApplicationScoped
public class Checkout {
    @Inject
    Ledger ledger;

    /** Set by a test: a second client standing for another application instance. */
    public static volatile LockManager otherInstance;

    /** Whether, right after {@code ledger.write} returned inside this transaction, another instance could take the lock. */
    @Transactional
    public boolean otherCouldLockBeforeCommit(String account) {
        ledger.write(account);
        return otherInstance
                .tryAcquire("ledger:" + account, LockOptions.ttl(java.time.Duration.ofSeconds(5)))
                .map(h -> {
                    h.release();
                    return true;
                })
                .orElse(false);
    }

    /** @Locked outside @Transactional on one method: the transaction commits inside the lock. */
    @Locked("ledger:{0}")
    @Transactional
    public int bothOnOneMethod(String account) {
        return ledger.statusNow();
    }
}
