package dev.lockwarden.cdi;

import dev.lockwarden.LockException;
import dev.lockwarden.LockHandle;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.naming.NoInitialContextException;

/**
 * {@link TxBinder} over the JTA {@code TransactionSynchronizationRegistry}. Loaded only when the
 * JTA API is on the class path (see {@link #find}).
 */
final class JtaBinder implements TxBinder {
    static final String JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";
    private static final System.Logger LOG = System.getLogger(JtaBinder.class.getName());

    private final TransactionSynchronizationRegistry registry;

    private JtaBinder(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    /**
     * The server's registry through JNDI (every Jakarta EE server), else a CDI bean of that type.
     * {@link #NONE} when there is no JNDI at all and no such bean; null when JNDI exists but did not
     * have it: a {@code java:comp} lookup fails on threads without a component context, so the
     * caller must ask again on a later call instead of releasing every lock before commit from then on.
     */
    static TxBinder find(BeanManager beans) {
        boolean noJndi = false;
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof TransactionSynchronizationRegistry tsr) {
                return new JtaBinder(tsr);
            }
        } catch (NoInitialContextException plainCdi) {
            noJndi = true; // Weld SE, tests: no JNDI provider at all
        } catch (NamingException | RuntimeException notHere) {
            // a server thread without java:comp: try CDI, and JNDI again next time
        }
        Bean<?> bean = beans.resolve(beans.getBeans(TransactionSynchronizationRegistry.class));
        if (bean != null) {
            return new JtaBinder((TransactionSynchronizationRegistry) beans.getReference(
                    bean, TransactionSynchronizationRegistry.class, beans.createCreationalContext(bean)));
        }
        return noJndi ? NONE : null;
    }

    @Override
    public Tx bindIfActive(LockHandle handle, LockLoss loss) {
        if (registry.getTransactionStatus() != Status.STATUS_ACTIVE) {
            return null; // none, or already marked for rollback: nothing will commit, release at return
        }
        try {
            registry.registerInterposedSynchronization(new ReleaseAfterCompletion(handle, loss));
        } catch (RuntimeException e) {
            handle.release();
            throw new LockException(
                    "@Locked could not tie lock '" + handle.name() + "' to the active JTA transaction, so it"
                            + " cannot be held until commit; the method was not run",
                    e);
        }
        return registry::setRollbackOnly;
    }

    /** Keeps the lock through commit; marks rollback-only if it was lost before. */
    private final class ReleaseAfterCompletion implements Synchronization {
        private final LockHandle handle;
        private final LockLoss loss;

        ReleaseAfterCompletion(LockHandle handle, LockLoss loss) {
            this.handle = handle;
            this.loss = loss;
        }

        @Override
        public void beforeCompletion() {
            if (!handle.isHeld()) {
                registry.setRollbackOnly();
                loss.report(LockLostEvent.Outcome.ROLLED_BACK);
            }
        }

        @Override
        public void afterCompletion(int status) {
            try {
                handle.release();
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "release of lock '" + handle.name() + "' after its transaction failed;"
                                + " it expires with its TTL",
                        e);
            }
        }
    }
}
