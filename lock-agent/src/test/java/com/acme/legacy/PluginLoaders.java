package com.acme.legacy;

import java.io.IOException;
import java.io.InputStream;

/**
 * Class loaders like those of JBoss Modules or OSGi: each defines its own copy of {@code com.acme.legacy.plugin.*}.
 * The isolating one delegates nothing but {@code java.*} (it cannot see the agent's bootstrap bridge); the
 * delegating one asks the application loader for everything else.
 */
final class PluginLoaders {
    private PluginLoaders() {}

    static ClassLoader isolating() {
        return new Own("isolating-plugin-loader", null, true);
    }

    static ClassLoader delegating() {
        return new Own("delegating-plugin-loader", PluginLoaders.class.getClassLoader(), false);
    }

    private static final class Own extends ClassLoader {
        private final boolean isolating;

        Own(String name, ClassLoader parent, boolean isolating) {
            super(name, parent);
            this.isolating = isolating;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    if (name.startsWith("com.acme.legacy.plugin.")) {
                        c = findClass(name);
                    } else if (isolating && !name.startsWith("java.")) {
                        throw new ClassNotFoundException(name + " is not visible from " + getName());
                    } else {
                        c = isolating
                                ? ClassLoader.getPlatformClassLoader().loadClass(name)
                                : getParent().loadClass(name);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            try (InputStream in = ClassLoader.getSystemResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] b = in.readAllBytes();
                return defineClass(name, b, 0, b.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }

        @Override
        public java.net.URL getResource(String name) {
            return name.startsWith("com/acme/legacy/plugin/")
                    ? ClassLoader.getSystemResource(name)
                    : super.getResource(name);
        }
    }
}
