package dev.lockwarden.cdi;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import jakarta.enterprise.inject.spi.ProcessSyntheticAnnotatedType;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Portable extension behind {@link Locked @Locked}: registers the interceptor, {@link LockContext}
 * and the default {@link LockManagerProducer} (so this jar needs no {@code beans.xml}), validates
 * every {@code @Locked} method of every managed bean at deployment and caches what the interceptor
 * needs per (bean class, method). Problems fail deployment through {@code addDefinitionError}, one
 * per problem, each naming {@code Class#method(params)} and the fix.
 */
public class LockedExtension implements Extension {
    private static final System.Logger LOG = System.getLogger(LockedExtension.class.getName());
    private static final List<Class<?>> OWN_BEANS =
            List.of(LockedInterceptor.class, LockContext.class, LockManagerProducer.class);

    private record Key(Class<?> beanClass, Method method) {}

    private final Map<Key, LockedMethod> methods = new ConcurrentHashMap<>();
    private final Set<Key> unlocked = ConcurrentHashMap.newKeySet();
    private volatile TxBinder transactions;

    void registerOwnBeans(@Observes BeforeBeanDiscovery event, BeanManager beanManager) {
        for (Class<?> type : OWN_BEANS) {
            event.addAnnotatedType(
                    beanManager.createAnnotatedType(type),
                    LockedExtension.class.getName() + "#" + type.getSimpleName());
        }
    }

    // Our beans come from registerOwnBeans only: drop copies found in a bean archive (shaded jars, WARs).
    void vetoInterceptorCopy(@Observes ProcessAnnotatedType<LockedInterceptor> event) {
        vetoUnlessOurs(event);
    }

    void vetoContextCopy(@Observes ProcessAnnotatedType<LockContext> event) {
        vetoUnlessOurs(event);
    }

    void vetoProducerCopy(@Observes ProcessAnnotatedType<LockManagerProducer> event) {
        vetoUnlessOurs(event);
    }

    private void vetoUnlessOurs(ProcessAnnotatedType<?> event) {
        if (!(event instanceof ProcessSyntheticAnnotatedType<?> synthetic && synthetic.getSource() == this)) {
            event.veto();
        }
    }

    <T> void validate(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        Class<?> beanClass = event.getBean().getBeanClass();
        Locked onType = type.getAnnotation(Locked.class);
        for (AnnotatedMethod<? super T> annotated : type.getMethods()) {
            Method method = annotated.getJavaMember();
            Locked locked = annotated.getAnnotation(Locked.class);
            boolean fromType = locked == null && onType != null;
            if (fromType && TypeLevel.exempt(method)) {
                unlocked.add(new Key(beanClass, method)); // the interceptor may still see it: let it through
                continue;
            }
            if (fromType) {
                locked = onType; // a type-level @Locked covers every business method
            }
            if (locked != null) {
                String origin = fromType
                        ? " (from the @Locked on class " + type.getJavaClass().getName()
                                + ": give this method its own @Locked, or make the class-level one fit every method)"
                        : "";
                LockedMethod meta = LockedMethod.create(
                        beanClass,
                        method,
                        locked,
                        problem -> event.addDefinitionError(new DefinitionException(problem + origin)));
                if (meta != null) {
                    methods.put(new Key(beanClass, method), meta);
                }
            }
        }
    }

    /**
     * Metadata of one intercepted method, or null if a type-level {@code @Locked} does not apply to
     * it (see {@link TypeLevel#exempt}); built on first use (and validated then) when the bean did
     * not pass through {@link #validate}, e.g. an instance made by an {@code InterceptionFactory}.
     *
     * @throws IllegalStateException the annotation is invalid (the message names the method and the fix)
     */
    LockedMethod metadata(Class<?> beanClass, Method method, Supplier<Locked> binding) {
        Key id = new Key(beanClass, method);
        LockedMethod meta = methods.get(id);
        if (meta != null) {
            return meta;
        }
        if (unlocked.contains(id) || (method.getAnnotation(Locked.class) == null && TypeLevel.exempt(method))) {
            return null;
        }
        return methods.computeIfAbsent(id, key -> {
            Locked locked = binding.get();
            if (locked == null) {
                throw new IllegalStateException(
                        "no @Locked binding found for " + LockedMethod.signature(beanClass, method)
                                + ": annotate the method or its class with @Locked");
            }
            List<String> problems = new ArrayList<>();
            LockedMethod created = LockedMethod.create(beanClass, method, locked, problems::add);
            if (created == null) {
                throw new IllegalStateException(String.join("; ", problems));
            }
            return created;
        });
    }

    /**
     * Checks every validated method that asks for replica acknowledgement against the manager the application
     * got: Redlock refuses it, and its timeout must be under the manager's default TTL when the method
     * sets no TTL. Called at start-up, once the manager is built.
     *
     * @throws jakarta.enterprise.inject.spi.DeploymentException naming each method and the fix
     */
    void checkReplicaAcks(dev.lockwarden.LockManager locks) {
        String redis = locks.describeRedis();
        String refusing = redis.startsWith("redlock[") ? "Redlock" : null;
        List<String> problems = new ArrayList<>();
        for (LockedMethod m : methods.values()) {
            if (m.replicaAcks() == null || m.replicaAcks().replicas() == 0) {
                continue;
            }
            String on = "@Locked(replicaAcks = \"" + m.replicaAcks() + "\") on " + m.id();
            if (refusing != null) {
                problems.add(
                        on + ": the LockManager runs on " + refusing + ", where Lockwarden does not wait for"
                                + " replicas. Remove replicaAcks, or use lockwarden.redis, lockwarden.sentinel or lockwarden.cluster");
                continue;
            }
            try {
                m.options(locks.defaultOptions());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new jakarta.enterprise.inject.spi.DeploymentException(String.join("\n", problems));
        }
    }

    /**
     * How locks join JTA transactions here, found on first use (a JNDI {@code java:comp} lookup
     * needs the caller's component context, which a deployment-time observer does not have).
     */
    TxBinder transactions(BeanManager beans) {
        TxBinder found = transactions;
        if (found == null) {
            found = isPresent("jakarta.transaction.TransactionSynchronizationRegistry")
                    ? JtaBinder.find(beans)
                    : TxBinder.NONE;
            if (found == null) {
                return TxBinder
                        .NONE; // JNDI, but no registry visible from this thread (no component context): ask again next
                // call
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    found == TxBinder.NONE
                            ? "@Locked: no JTA TransactionSynchronizationRegistry found; locks are released when their method returns"
                            : "@Locked: JTA found; a lock taken inside a transaction is released after the transaction completes");
            transactions = found;
        }
        return found;
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, LockedExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
