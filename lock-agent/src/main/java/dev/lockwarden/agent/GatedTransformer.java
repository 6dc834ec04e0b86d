package dev.lockwarden.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The class file transformer the JVM calls for every class: classes of the boot loader and classes whose name no
 * rule can match ({@link NameFilter}) return at once, unchanged (their bytes stay identical); only the rest reach
 * the {@link ClassWeaver}. This keeps the per-class cost of a large application to a string comparison.
 */
final class GatedTransformer implements ClassFileTransformer {
    private final NameFilter filter;
    private final ClassWeaver weaver;

    GatedTransformer(NameFilter filter, ClassWeaver weaver) {
        this.filter = filter;
        this.weaver = weaver;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (loader == null || !filter.mayMatch(className)) {
            return null;
        }
        return weaver.weave(module, loader, className, redefined, domain, bytes);
    }
}
