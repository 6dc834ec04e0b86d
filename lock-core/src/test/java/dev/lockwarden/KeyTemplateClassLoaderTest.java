package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two class loaders with different classes of the same name (a redeployed application): the
 * accessor cache of {@link KeyTemplate} keeps them apart and does not keep a dropped loader alive.
 */
class KeyTemplateClassLoaderTest {
    private static final String NAME = "demo.Ticket";
    private static final KeyTemplate TEMPLATE = KeyTemplate.parse("ticket:{t.id}", List.of("t"));

    /** Compiles {@code body} as class demo.Ticket into its own directory and loads it in a fresh loader. */
    private static URLClassLoader loaderWith(Path dir, String body) throws Exception {
        Path src = dir.resolve("src/demo/Ticket.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "package demo; public class Ticket { " + body + " }");
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", out.toString(), src.toString()));
        return new URLClassLoader(new URL[] {out.toUri().toURL()}, KeyTemplateClassLoaderTest.class.getClassLoader());
    }

    private static Object newTicket(ClassLoader loader) throws Exception {
        return loader.loadClass(NAME).getConstructor().newInstance();
    }

    @Test
    void sameClassNameInTwoLoadersUsesEachClassesOwnAccessor(@TempDir Path tmp) throws Exception {
        try (URLClassLoader a = loaderWith(tmp.resolve("a"), "public String getId() { return \"from-getter\"; }");
                URLClassLoader b = loaderWith(tmp.resolve("b"), "public String id = \"from-field\";")) {
            Object ta = newTicket(a);
            Object tb = newTicket(b);
            assertEquals(ta.getClass().getName(), tb.getClass().getName());
            assertNotSame(ta.getClass(), tb.getClass());
            assertEquals("ticket:from-getter", TEMPLATE.render(new Object[] {ta}));
            // keyed by name, the getter of loader a's class would be called on b's object and fail
            assertEquals("ticket:from-field", TEMPLATE.render(new Object[] {tb}));
            assertEquals("ticket:from-getter", TEMPLATE.render(new Object[] {ta}));
        }
    }

    @Test
    void theCacheDoesNotKeepADroppedClassLoaderAlive(@TempDir Path tmp) throws Exception {
        WeakReference<ClassLoader> ref = renderWithThrowawayLoader(tmp);
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get(), "the accessor cache keeps an undeployed application's class loader alive");
    }

    private static WeakReference<ClassLoader> renderWithThrowawayLoader(Path tmp) throws Exception {
        URLClassLoader loader = loaderWith(tmp.resolve("gone"), "public String getId() { return \"x\"; }");
        assertTrue(TEMPLATE.render(new Object[] {newTicket(loader)}).equals("ticket:x"));
        loader.close();
        return new WeakReference<>(loader);
    }
}
