package dev.lockwarden.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

/**
 * Byte Buddy {@link TypePool}s over class loaders' class files (nothing is loaded), with one cache of type
 * descriptions per class loader, shared by every class that loader defines: a super type or parameter type is read
 * once, not once per class. The caches are weakly keyed by their loader and reach it only weakly (a cached
 * description refers to its pool, whose class file locator holds the loader weakly), so an undeployed web app's
 * loader can go; and they are bounded: one that reaches {@value #MAX_CACHED} descriptions starts over.
 */
final class TypePools {
    /** Descriptions kept per class loader before its cache starts over. */
    static final int MAX_CACHED = 4_096;

    private static final Map<ClassLoader, TypePool.CacheProvider> CACHES = new WeakHashMap<>();

    private TypePools() {}

    /** The pool of {@code loader}'s class files (the system loader's for null, so JDK types resolve too). */
    static TypePool of(ClassLoader loader) {
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        return pool(cache(l), ClassFileLocator.ForClassLoader.WeaklyReferenced.of(l));
    }

    /**
     * The pool of {@code loader}'s class files where class {@code name} is described from {@code bytes} (the class
     * being loaded, or the original class file of one being retransformed); that description is not cached.
     */
    static TypePool of(ClassLoader loader, String name, byte[] bytes) {
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        ClassFileLocator locator = new ClassFileLocator.Compound(
                ClassFileLocator.Simple.of(name, bytes), ClassFileLocator.ForClassLoader.WeaklyReferenced.of(l));
        return pool(new Overlay(cache(l), name), locator);
    }

    /** A pool of the class files {@code locator} finds, with a cache of its own (the {@code check} command). */
    static TypePool of(ClassFileLocator locator) {
        return pool(new Bounded(), locator);
    }

    /** The class file of {@code name} among {@code loader}'s resources, or null. */
    static byte[] read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    private static TypePool pool(TypePool.CacheProvider cache, ClassFileLocator locator) {
        // lazy: a super type's name is known without reading its class file; FAST: code skipped (parameter names
        // come from MethodParameters, javac -parameters, as for reflection; not from debug information)
        return new TypePool.Default.WithLazyResolution(cache, locator, TypePool.Default.ReaderMode.FAST);
    }

    private static synchronized TypePool.CacheProvider cache(ClassLoader loader) {
        TypePool.CacheProvider c = CACHES.get(loader);
        if (c == null) {
            c = new Bounded();
            CACHES.put(loader, c);
        }
        return c;
    }

    /** A cache that starts over when full. */
    private static final class Bounded implements TypePool.CacheProvider {
        private final Map<String, TypePool.Resolution> resolutions = new ConcurrentHashMap<>();

        @Override
        public TypePool.Resolution find(String name) {
            return resolutions.get(name);
        }

        @Override
        public TypePool.Resolution register(String name, TypePool.Resolution resolution) {
            if (resolutions.size() >= MAX_CACHED) {
                resolutions.clear();
            }
            TypePool.Resolution earlier = resolutions.putIfAbsent(name, resolution);
            return earlier != null ? earlier : resolution;
        }

        @Override
        public void clear() {
            resolutions.clear();
        }
    }

    /** The loader's shared cache, except for the one class described from the bytes at hand. */
    private static final class Overlay implements TypePool.CacheProvider {
        private final TypePool.CacheProvider shared;
        private final String own;

        Overlay(TypePool.CacheProvider shared, String own) {
            this.shared = shared;
            this.own = own;
        }

        @Override
        public TypePool.Resolution find(String name) {
            return name.equals(own) ? null : shared.find(name);
        }

        @Override
        public TypePool.Resolution register(String name, TypePool.Resolution resolution) {
            return name.equals(own) ? resolution : shared.register(name, resolution);
        }

        @Override
        public void clear() {
            shared.clear();
        }
    }
}
