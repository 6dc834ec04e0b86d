package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigParser;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.bytebuddy.jar.asm.ClassReader;
import org.junit.jupiter.api.Test;

/**
 * A class file newer than the bundled ASM reads — an application compiled for a JDK newer than the agent knows —
 * must fail closed, not run unlocked (nor stop the JVM). Such a class can only be defined by a JVM at least as new
 * as its class file, which this build does not have; so the transformation runs in-process on the class file with
 * its major version raised beyond ASM's, and the class it returns is then defined the way that newer JVM would
 * (its version lowered again to one this JVM defines): every method throws the agent's message. Rules with a
 * wildcard meet only this path (the pre-main check covers exact names on the class path).
 */
class NewerClassFileTest {
    private static final String CLASS = "com.acme.legacy.Guarded";

    @Test
    void aClassFileNewerThanTheBundledAsmFailsClosed() throws Exception {
        byte[] original = classFile(CLASS);
        int beyond = firstVersionAsmRefuses(original);
        byte[] newer = withMajor(original, beyond);

        AgentConfig config = AgentConfigParser.parse(
                "newer.conf", List.of("redis = redis://127.0.0.1:1", "com.acme.legacy.Guard*#pay key=\"pay:{0}\""));
        AgentRuntime runtime = new AgentRuntime(config);
        AgentReport report = new AgentReport(config);
        GatedTransformer transformer = new GatedTransformer(
                new NameFilter(config.rules()),
                new MethodPlanner(config.rules()),
                new Binder(runtime, report),
                report,
                null);
        ClassLoader app = new Definer();
        byte[] result = transformer.transform(null, app, CLASS.replace('.', '/'), null, null, newer);

        assertNotNull(result, "a class a rule names is never left unwoven");
        assertEquals(beyond, major(result), "the failing class keeps the class file's version");
        assertFalse(
                new String(result, StandardCharsets.ISO_8859_1).contains("BODY RAN"),
                "nothing of the original code is kept");
        assertTrue(
                report.problems().stream()
                        .anyMatch(p -> p.startsWith("could not instrument " + CLASS) && p.contains("(" + beyond + ")")),
                report.problems().toString());

        // as the newer JVM would define it: the configured method throws the agent's message
        Method pay = new Definer().define(CLASS, withMajor(result, 61)).getMethod("pay", String.class);
        // the first use initialises the class (reflection throws that error unwrapped)
        Throwable init = assertThrows(ExceptionInInitializerError.class, () -> pay.invoke(null, "p1"));
        IllegalStateException closed = assertInstanceOf(IllegalStateException.class, init.getCause());
        assertTrue(
                closed.getMessage()
                        .startsWith("lockwarden-agent: " + CLASS + " could not be instrumented"
                                + " (java.lang.IllegalArgumentException: Java "),
                closed.getMessage());
        assertTrue(
                closed.getMessage().contains("(" + beyond + ") is not supported")
                        && closed.getMessage().contains("newer.conf:2"),
                closed.getMessage());

        // control: the same class file, defined without the agent, runs its body
        Method plain = new Definer().define(CLASS, withMajor(newer, 61)).getMethod("pay", String.class);
        assertEquals("paid p1", plain.invoke(null, "p1"));
    }

    private static int firstVersionAsmRefuses(byte[] classFile) {
        for (int major = 61; major < 200; major++) {
            try {
                new ClassReader(withMajor(classFile, major));
            } catch (IllegalArgumentException refused) {
                assertTrue(refused.getMessage().contains("Unsupported class file"), refused.toString());
                return major;
            }
        }
        throw new AssertionError("ASM read every version up to 199");
    }

    private static byte[] classFile(String name) throws Exception {
        try (InputStream in = NewerClassFileTest.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    private static byte[] withMajor(byte[] classFile, int major) {
        byte[] copy = classFile.clone();
        copy[6] = (byte) (major >> 8);
        copy[7] = (byte) major;
        return copy;
    }

    private static int major(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    /** Defines one class from bytes; everything else from the test's class path. */
    private static final class Definer extends ClassLoader {
        Definer() {
            super(NewerClassFileTest.class.getClassLoader());
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
