package dev.lockwarden.cdi;

import java.lang.reflect.Method;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs {@link Locked @Locked} methods under their lock: renders the name, acquires, exposes the
 * handle through {@link LockContext} / {@link Locks}, runs the method and releases in all cases.
 * Busy: {@link OnBusy#FAIL} throws a {@link LockNotAcquiredException} naming the method; {@link OnBusy#SKIP} returns
 * null (or the primitive default) without running the method. If the lock was lost while the
 * method ran, {@link LockLostException} is thrown after it, as in
 * {@link LockManager#withLock}.
 *
 * <p>Priority {@code PLATFORM_BEFORE + 100}: outside {@code @Transactional} (+200), so a transaction
 * commits before its lock is released.
 */
@Locked("") // binds to every @Locked: all its members are @Nonbinding
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class LockedInterceptor {
    private static final System.Logger LOG = System.getLogger(LockedInterceptor.class.getName());

    private final LockManager locks;
    private final LockedExtension extension;
    private final Class<?> beanClass;

    @Inject
    public LockedInterceptor(LockManager locks, LockedExtension extension, @Intercepted Bean<?> bean) {
        this.locks = locks;
        this.extension = extension;
        this.beanClass = bean.getBeanClass();
    }

    @AroundInvoke
    Object lock(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        LockedMethod meta = extension.metadata(beanClass, method, () -> ctx.getInterceptorBinding(Locked.class));
        String name = lockName(meta, ctx.getParameters());
        LockOptions options = meta.options(locks.defaultOptions());
        LockHandle handle;
        try {
            handle = locks.acquire(name, options);
        } catch (LockNotAcquiredException busy) {
            if (meta.onBusy() == OnBusy.SKIP) {
                LOG.log(System.Logger.Level.DEBUG, () -> meta.id() + " skipped: lock '" + name + "' is busy");
                return meta.skipValue();
            }
            throw new LockedBusyException(meta.id(), options.waitUpTo(), busy);
        }
        try (handle) {
            Object result;
            Locks.push(handle);
            try {
                result = ctx.proceed();
            } finally {
                Locks.pop();
            }
            if (!handle.isHeld()) {
                throw lost(meta, handle); // the body may have overlapped another holder
            }
            return result;
        }
    }

    private static LockLostException lost(LockedMethod meta, LockHandle handle) {
        LockLostException e = new LockLostException(handle.name(), "it was lost while @Locked method " + meta.id()
                + " ran (expired, force-released or a refresh failed), so the method may have overlapped another holder."
                + " Guard its writes with LockContext.current().fencingToken(), keep autoRefresh on, or raise @Locked(ttl)");
        try {
            handle.checkHeld();
        } catch (LockLostException why) {
            e.initCause(why);
        }
        return e;
    }

    private static String lockName(LockedMethod meta, Object[] args) {
        try {
            return meta.key().render(args);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("@Locked on " + meta.id() + ": " + e.getMessage()
                    + ". Pass a non-null value or change the template", e);
        }
    }
}
