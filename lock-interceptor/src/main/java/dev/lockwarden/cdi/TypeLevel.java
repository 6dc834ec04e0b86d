package dev.lockwarden.cdi;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;

/**
 * Which methods a class-level {@code @Locked} leaves alone: what is not a business method. A
 * lifecycle callback, an {@code @Inject} initializer or {@code toString()} taking a distributed
 * lock (and failing when Redis is down, or blocking a debugger) would surprise everyone.
 */
final class TypeLevel {
    private static final Set<String> OBJECT_METHODS =
            Set.of("toString()", "hashCode()", "equals(Object)", "clone()", "finalize()");
    private static final Set<Class<? extends Annotation>> CONTAINER_CALLED =
            Set.of(PostConstruct.class, PreDestroy.class, Inject.class);

    private TypeLevel() {}

    /** True if a {@code @Locked} on the class must not apply to {@code m}. */
    static boolean exempt(Method m) {
        int mods = m.getModifiers();
        if (Modifier.isStatic(mods)
                || Modifier.isPrivate(mods)
                || m.isSynthetic()
                || m.isBridge()
                || m.getDeclaringClass() == Object.class) {
            return true;
        }
        for (Class<? extends Annotation> a : CONTAINER_CALLED) {
            if (m.isAnnotationPresent(a)) {
                return true;
            }
        }
        StringBuilder signature = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            signature.append(p.getSimpleName());
        }
        return OBJECT_METHODS.contains(signature.append(')').toString());
    }
}
