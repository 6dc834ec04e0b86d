package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;

/**
 * Ties a lock to the JTA transaction active on the calling thread, if any. Our own type, so the
 * interceptor runs where no JTA API is on the class path.
 */
interface TxBinder {
    /** No JTA on the class path, or no registry found: locks are released when the method returns. */
    TxBinder NONE = (handle, loss) -> null;

    /**
     * If a transaction is active, registers the release of {@code handle} for after its completion
     * (and a rollback-only mark before it, if the lock was lost) and returns the transaction.
     *
     * @return null when no transaction is active: the caller releases the lock itself
     */
    Tx bindIfActive(LockHandle handle, LockLoss loss);

    /** The active transaction a lock was bound to. */
    interface Tx {
        /** Marks it rollback-only: the work done by a holder that lost its lock must not commit. */
        void setRollbackOnly();
    }
}
