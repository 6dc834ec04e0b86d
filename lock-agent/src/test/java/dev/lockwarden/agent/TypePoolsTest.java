package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/** The per-loader caches of type descriptions: shared by a loader's classes, and never keeping a loader alive. */
class TypePoolsTest {
    private static final String TYPE = "com.acme.legacy.pay.CardHandler";

    @Test
    void aLoadersCacheDoesNotKeepTheLoaderAlive() throws Exception {
        WeakReference<ClassLoader> gone = describeThroughAThrowAwayLoader();
        for (int i = 0; i < 50 && gone.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(gone.get(), "an undeployed loader is collected although its cache holds descriptions");
    }

    @Test
    void descriptionsAreSharedByALoadersClasses() throws Exception {
        try (URLClassLoader loader = throwAway()) {
            TypeDescription first = TypePools.of(loader).describe(TYPE).resolve();
            TypeDescription again = TypePools.of(loader).describe(TYPE).resolve();
            assertEquals(first, again);
            // the class being loaded is described from its bytes, the rest from the shared cache
            TypePool own = TypePools.of(loader, "com.acme.Other", TypePools.read(loader, TYPE));
            assertTrue(own.describe(TYPE).isResolved());
        }
    }

    private static WeakReference<ClassLoader> describeThroughAThrowAwayLoader() throws Exception {
        URLClassLoader loader = throwAway();
        TypeDescription d = TypePools.of(loader).describe(TYPE).resolve();
        assertTrue(d.getDeclaredMethods().stream().anyMatch(m -> m.getName().equals("handle")));
        assertTrue(d.getInterfaces().asErasures().get(0).getName().endsWith("PaymentHandler"));
        TypePools.of(loader, TYPE, TypePools.read(loader, TYPE))
                .describe(TYPE)
                .resolve()
                .getSuperClass();
        loader.close();
        return new WeakReference<>(loader);
    }

    private static URLClassLoader throwAway() throws Exception {
        URL classes = Path.of(TypePoolsTest.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toUri()
                .toURL();
        return new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
    }
}
