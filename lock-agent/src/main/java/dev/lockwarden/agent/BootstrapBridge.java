package dev.lockwarden.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
    private static final String MARKER = "lockwarden.agent.bridge";

    private BootstrapBridge() {
    }

    static synchronized void inject(Instrumentation inst) throws IOException {
        if (System.getProperty(MARKER) == null) {
            define(inst);
        }
        try {
            Class.forName(DIR.replace('/', '.') + CLASSES[0], false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IOException("the bootstrap bridge " + DIR.replace('/', '.') + CLASSES[0] + " is not in the boot class"
                    + " loader after injection (" + MARKER + "=" + System.getProperty(MARKER) + "): " + e, e);
        }
    }

    private static void define(Instrumentation inst) throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        for (String c : CLASSES) {
            classes.put((DIR + c).replace('/', '.'), read(DIR + c + ".class"));
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
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (String c : CLASSES) {
                out.putNextEntry(new JarEntry(DIR + c + ".class"));
                out.write(read(DIR + c + ".class"));
                out.closeEntry();
            }
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
        System.setProperty(MARKER, jar.toString());
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
