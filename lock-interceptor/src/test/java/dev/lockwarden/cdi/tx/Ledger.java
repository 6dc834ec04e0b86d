package dev.lockwarden.cdi.tx;

import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** @Locked methods called inside a caller's JTA transaction; records how that transaction ended. */
@ApplicationScoped
public class Ledger {
    @Inject
    TransactionSynchronizationRegistry registry;

    @Inject
    LockManager locks;

    private volatile int lastStatus = -1;

    @Locked("ledger:{0}")
    public long write(String account) {
        watchOutcome();
        return Locks.current().fencingToken();
    }

    @Locked(value = "ledger:{0}", ttl = "300ms")
    public long writeShortLease(String account) {
        watchOutcome();
        return Locks.current().fencingToken();
    }

    @Locked(value = "ledger:{0}", ttl = "300ms")
    public void loseWhileWriting(String account) throws InterruptedException {
        watchOutcome();
        locks.inspector().forceRelease("ledger:" + account, "test operator");
        Thread.sleep(600); // the watchdog's next refresh (every ttl/3) finds the lock gone
    }

    /** The status of the transaction on this thread now. */
    public int statusNow() {
        return registry.getTransactionStatus();
    }

    /** Status of the last transaction a method ran in, as its own Synchronization saw it. */
    public int lastStatus() {
        return lastStatus;
    }

    private void watchOutcome() {
        lastStatus = -1;
        if (registry.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            return;
        }
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
                lastStatus = status;
            }
        });
    }

    public static String name(int status) {
        return status == Status.STATUS_COMMITTED
                ? "committed"
                : status == Status.STATUS_ROLLEDBACK ? "rolled back" : "status " + status;
    }
}
