package dev.lockwarden.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import net.bytebuddy.dynamic.loading.ClassInjector;

/**
 * Puts {@code dev.lockwarden.agent.bootstrap.LockBridge} on the bootstrap class path, so advice
 * inlined into classes of any class loader (web apps, plugins) resolves it. The bridge uses JDK
 * types only; everything else stays in the agent jar on the system class path. The classes are
 * defined in the boot loader directly when possible, else through a small temporary jar appended
 * to the boot class path.
 */
final class BootstrapBridge {
    private static final String DIR = "dev/lockwarden/agent/bootstrap/";
    private static final String[] CLASSES = {"LockBridge", "LockBridge$Dispatcher", "LockBridge$Skip"};
    /** Set once injected: {@code definer}, {@code unsafe} or the appended jar (how it was done, for support and tests). */
    static final String MARKER = "lockwarden.agent.bridge";
    /** {@code -Dlockwarden.agent.bridge.definer=false} skips the cheap way (should a JDK refuse it noisily). */
    static final String DEFINER_SWITCH = "lockwarden.agent.bridge.definer";

    private BootstrapBridge() {}

    static synchronized void inject(Instrumentation inst) throws IOException {
        if (System.getProperty(MARKER) == null) {
            define(inst);
        }
        try {
            Class.forName(DIR.replace('/', '.') + CLASSES[0], false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IOException(
                    "the bootstrap bridge " + DIR.replace('/', '.') + CLASSES[0] + " is not in the boot class"
                            + " loader after injection (" + MARKER + "=" + System.getProperty(MARKER) + "): " + e,
                    e);
        }
    }

    private static void define(Instrumentation inst) throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        for (String c : CLASSES) {
            classes.put((DIR + c).replace('/', '.'), read(DIR + c + ".class"));
        }
        if (!"false".equalsIgnoreCase(System.getProperty(DEFINER_SWITCH)) && defineDirectly(inst, classes)) {
            System.setProperty(MARKER, "definer");
            return;
        }
        ClassInjector.UsingUnsafe.Factory unsafe = ClassInjector.UsingUnsafe.Factory.resolve(inst);
        if (unsafe.isAvailable()) {
            // defines the classes in the boot loader directly: appending to the boot class path
            // would switch off class data sharing for the application's classes (slower start)
            unsafe.make(null, null).injectRaw(classes);
            System.setProperty(MARKER, "unsafe");
            return;
        }
        Path jar = Files.createTempFile("lockwarden-agent-bridge", ".jar");
        jar.toFile().deleteOnExit();
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file)) {
            for (String c : CLASSES) {
                out.putNextEntry(new JarEntry(DIR + c + ".class"));
                out.write(read(DIR + c + ".class"));
                out.closeEntry();
            }
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
        System.setProperty(MARKER, jar.toString());
    }

    /**
     * The cheap way: {@link BootDefiner} in a class loader of its own, with {@code jdk.internal.misc} exported to that
     * loader's module only. False (and the slower ways are tried) where the JDK does not allow it.
     */
    private static boolean defineDirectly(Instrumentation inst, Map<String, byte[]> classes) {
        try {
            String name = BootDefiner.class.getName();
            byte[] bytes = read(name.replace('.', '/') + ".class");
            Class<?> definer = new IsolatedLoader().define(name, bytes);
            Module base = Class.forName(BootDefiner.UNSAFE, false, null).getModule();
            String pkg = BootDefiner.UNSAFE.substring(0, BootDefiner.UNSAFE.lastIndexOf('.'));
            inst.redefineModule(base, Set.of(), Map.of(pkg, Set.of(definer.getModule())), Map.of(), Set.of(), Map.of());
            definer.getMethod("define", Map.class).invoke(null, classes);
            return true;
        } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** A loader with no parent but the boot loader, holding only {@link BootDefiner}. */
    private static final class IsolatedLoader extends ClassLoader {
        IsolatedLoader() {
            super("lockwarden-agent-boot-definer", null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    private static byte[] read(String resource) throws IOException {
        try (InputStream in = BootstrapBridge.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the agent jar (rebuild lock-agent)");
            }
            return in.readAllBytes();
        }
    }
}
