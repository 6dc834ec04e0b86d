package dev.lockwarden.cdi;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;

/**
 * Finds the {@link Locked} binding of an invocation on any Jakarta Interceptors version:
 * {@code InvocationContext.getInterceptorBinding} exists only since Interceptors 2.2 (EE 11);
 * on 2.1 (EE 10 servers such as Payara 6) calling it would be a {@code NoSuchMethodError}.
 */
final class Bindings {
    private static final boolean HAS_BINDING_API = hasBindingApi();

    private Bindings() {}

    /** The method's {@code @Locked}, else its class's (inherited), else the container's binding; null if none. */
    static Locked locked(InvocationContext ctx) {
        Method method = ctx.getMethod();
        Locked locked = method.getAnnotation(Locked.class);
        if (locked == null && ctx.getTarget() != null) {
            locked =
                    ctx.getTarget().getClass().getAnnotation(Locked.class); // @Inherited: also through proxy subclasses
        }
        if (locked == null) {
            locked = method.getDeclaringClass().getAnnotation(Locked.class);
        }
        if (locked == null && HAS_BINDING_API) {
            locked = ctx.getInterceptorBinding(Locked.class); // bindings added by an extension or InterceptionFactory
        }
        return locked;
    }

    private static boolean hasBindingApi() {
        try {
            InvocationContext.class.getMethod("getInterceptorBinding", Class.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
