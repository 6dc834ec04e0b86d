package dev.lockwarden.admin.ui;

import com.vaadin.flow.di.DefaultInstantiator;
import com.vaadin.flow.server.VaadinService;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.Map;

/**
 * Creates views through a public constructor whose parameters are all known services (the
 * constructor with the most parameters wins); other classes the default way.
 */
final class ServiceInstantiator extends DefaultInstantiator {
    private final transient Map<Class<?>, Object> services;

    ServiceInstantiator(VaadinService service, Map<Class<?>, Object> services) {
        super(service);
        this.services = services;
    }

    @Override
    public <T> T getOrCreate(Class<T> type) {
        Constructor<?> best = null;
        for (Constructor<?> c : type.getConstructors()) {
            boolean injectable = c.getParameterCount() > 0
                    && Arrays.stream(c.getParameterTypes()).allMatch(services::containsKey);
            if (injectable && (best == null || c.getParameterCount() > best.getParameterCount())) {
                best = c;
            }
        }
        if (best == null) {
            return super.getOrCreate(type);
        }
        Object[] args =
                Arrays.stream(best.getParameterTypes()).map(services::get).toArray();
        try {
            return type.cast(best.newInstance(args));
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException("cannot create " + type.getName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + type.getName() + ": " + e, e);
        }
    }
}
