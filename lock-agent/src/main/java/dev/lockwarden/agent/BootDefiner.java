package dev.lockwarden.agent;

import java.lang.reflect.Method;
import java.util.Map;

/**
 * Defines classes in the boot class loader through {@code jdk.internal.misc.Unsafe}. {@link BootstrapBridge} loads
 * this class into a throw-away class loader of its own and exports {@code jdk.internal.misc} to that loader's
 * module only, so neither the agent jar nor the application's class path gains access to JDK internals. JDK types
 * only, reflection only: no Byte Buddy class generation at start-up (that alone cost ~0.5 s and ~550 classes).
 */
public final class BootDefiner {
    /** The JDK class whose {@code defineClass(…, loader = null, …)} defines into the boot loader. */
    public static final String UNSAFE = "jdk.internal.misc.Unsafe";

    private BootDefiner() {}

    /** Defines each binary name → class file in the boot loader, in map order. */
    public static void define(Map<String, byte[]> classes) throws ReflectiveOperationException {
        Class<?> type = Class.forName(UNSAFE);
        Object unsafe = type.getMethod("getUnsafe").invoke(null);
        Method define = type.getMethod(
                "defineClass",
                String.class,
                byte[].class,
                int.class,
                int.class,
                ClassLoader.class,
                java.security.ProtectionDomain.class);
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            define.invoke(unsafe, c.getKey(), c.getValue(), 0, c.getValue().length, null, null);
        }
    }
}
