package dev.lockwarden.cdi;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs {@link Locked @Locked} methods under their lock: renders the name, acquires, exposes the
 * lock through {@link LockContext} / {@link Locks}, runs the method and releases the lock — when
 * the method returns, when its {@code CompletionStage} completes, or after its JTA transaction
 * completes. Busy: {@link OnBusy#FAIL} throws a {@link LockNotAcquiredException} naming the method;
 * {@link OnBusy#SKIP} returns the method's "skipped" value without running it. A lock lost while
 * the method ran is a {@link LockLostException} (and a {@link LockLostEvent}).
 *
 * <p>Priority {@code PLATFORM_BEFORE + 100}: outside {@code @Transactional} (+200), so a
 * transaction the interceptor chain starts commits before its lock is released.
 */
@Locked // binds to every @Locked: all its members are @Nonbinding
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class LockedInterceptor {
    private static final System.Logger LOG = System.getLogger(LockedInterceptor.class.getName());

    // Field injection, not a constructor: EJB containers (GlassFish/Payara) subclass interceptors
    // and re-declare the constructor with raw types, which Weld then rejects for Event<...>/Bean<?>.
    @Inject
    LockManager locks;

    @Inject
    LockedExtension extension;

    @Inject
    Event<LockLostEvent> lostEvents;

    @Inject
    BeanManager beans;

    @Inject
    @Intercepted
    Bean<?> bean;

    @AroundInvoke
    Object lock(InvocationContext ctx) throws Exception {
        LockedMethod meta = extension.metadata(bean.getBeanClass(), ctx.getMethod(), () -> Bindings.locked(ctx));
        if (meta == null) {
            return ctx.proceed(); // not a business method of a class-level @Locked (toString, @PostConstruct, ...)
        }
        String name = lockName(meta, ctx.getParameters());
        LockOptions options = meta.options(locks.defaultOptions());
        LockHandle handle;
        try {
            handle = meta.shape().async() ? AsyncHold.acquire(locks, name, options) : locks.acquire(name, options);
        } catch (LockNotAcquiredException busy) {
            if (meta.onBusy() == OnBusy.SKIP) {
                LOG.log(System.Logger.Level.DEBUG, () -> meta.id() + " skipped: lock '" + name + "' is busy");
                return meta.shape().skipValue().get();
            }
            throw new LockedBusyException(meta.id(), options.waitUpTo(), busy);
        }
        LockLoss loss = new LockLoss(meta.id(), handle, lostEvents::fire);
        if (meta.shape().async()) {
            return LockedCall.async(ctx, handle, loss);
        }
        TxBinder.Tx tx;
        try {
            tx = extension.transactions(beans).bindIfActive(handle, loss);
        } catch (RuntimeException | Error e) {
            handle.release();
            throw e;
        }
        return tx != null ? LockedCall.inTransaction(ctx, handle, loss, tx) : LockedCall.sync(ctx, handle, loss);
    }

    private static String lockName(LockedMethod meta, Object[] args) {
        try {
            return meta.key().render(args);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "@Locked on " + meta.id() + ": " + e.getMessage()
                            + ". Pass a non-null value or change the template",
                    e);
        }
    }
}
