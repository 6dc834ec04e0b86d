package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A class with a lock-wrapped method that neither weaver can take — its constant pool is so full that the wrapper's
 * constants do not fit (Byte Buddy's ASM throws {@code ClassTooLargeException}) — must not let the method
 * run unlocked: it is defined with every method throwing ({@link FailClosedClass}), the call fails with the agent's
 * message and the method's body never runs. Without the agent the same class loads and its method runs.
 */
@Timeout(120)
class FailClosedWeaveIT extends RedisAgentTestBase {
    /** The JVM's limit of constant pool entries (constant_pool_count is a u2: at most 65,535, entries 1…65,534). */
    private static final int POOL_LIMIT = 65_535;

    private static final String APP = "package com.acme.full;\n"
            + "public class App {\n"
            + "  public static void main(String[] args) {\n"
            + "    System.out.println(\"RESULT \" + Full.charge(\"p1\"));\n"
            + "  }\n"
            + "}\n";

    @Test
    void aClassNoWeaverCanTakeFailsInsteadOfRunningUnlocked() throws Exception {
        Path classes = dir.resolve("classes");
        byte[] full = fullClass(POOL_LIMIT - 12);
        assertTrue(poolCount(full) > POOL_LIMIT - 15 && poolCount(full) <= POOL_LIMIT, "pool count " + poolCount(full));
        Files.write(Files.createDirectories(classes.resolve("com/acme/full")).resolve("Full.class"), full);
        Path src = Files.createDirectories(dir.resolve("src/com/acme/full"));
        Files.writeString(src.resolve("App.java"), APP);
        ByteArrayOutputStream javacOut = new ByteArrayOutputStream();
        assertEquals(
                0,
                ToolProvider.getSystemJavaCompiler()
                        .run(
                                null,
                                javacOut,
                                javacOut,
                                "-cp",
                                classes.toString(),
                                "-d",
                                classes.toString(),
                                src.resolve("App.java").toString()),
                "javac: " + javacOut);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        // control: the class is valid and its method runs without the agent
        try (ChildJvm app =
                ChildJvm.of(new ProcessBuilder(java, "-cp", classes.toString(), "com.acme.full.App").start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("BODY RAN p1"), app.toString());
            assertTrue(app.stdout().contains("RESULT charged p1"), app.toString());
        }

        Path config = config("full.conf", "com.acme.full.Full#charge(java.lang.String) key=\"full:{0}\"");
        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(
                        List.of(java, ChildJvm.javaagent(config), "-cp", classes.toString(), "com.acme.full.App"))
                .start())) {
            assertNotEquals(0, app.waitFor(RUN), "the call must fail\n" + app);
            assertFalse(app.stdout().contains("BODY RAN"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stderr().contains("could not instrument com.acme.full.Full in class loader app"),
                    app.toString());
            assertTrue(
                    app.stderr()
                            .contains("the class is defined with every method throwing IllegalStateException, so "
                                    + "com.acme.full.Full#charge(java.lang.String) (" + config
                                    + ":2) never runs without its lock"),
                    app.toString());
            assertTrue(
                    app.stderr()
                            .contains(
                                    "java.lang.IllegalStateException: lockwarden-agent: com.acme.full.Full could not be"
                                            + " instrumented"),
                    "the application sees the agent's message\n" + app);
            assertFalse(app.stderr().contains("run WITHOUT locks"), app.toString());
            assertFalse(
                    app.stderr().contains("matched no method"),
                    "the rule did match: not reported as matching nothing\n" + app);
        }
        assertEquals("0", redis.node(0).command("EXISTS", "lock:{full:p1}"));
    }

    /**
     * {@code com.acme.full.Full}: {@code static String charge(String)} printing "BODY RAN id" and returning "charged id",
     * and as many {@code static final String} constants as bring the constant pool to {@code targetCount}.
     */
    private static byte[] fullClass(int targetCount) {
        int base = poolCount(withFields(0));
        int perField = (poolCount(withFields(100)) - base) / 100;
        return withFields((targetCount - base) / perField);
    }

    private static byte[] withFields(int fields) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(
                Opcodes.V17,
                Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER,
                "com/acme/full/Full",
                null,
                "java/lang/Object",
                null);
        for (int i = 0; i < fields; i++) {
            cw.visitField(
                            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
                            "F" + i,
                            "Ljava/lang/String;",
                            null,
                            "v" + i)
                    .visitEnd();
        }
        MethodVisitor mv = cw.visitMethod(
                Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
                "charge",
                "(Ljava/lang/String;)Ljava/lang/String;",
                null,
                null);
        mv.visitParameter("id", 0);
        mv.visitCode();
        mv.visitFieldInsn(Opcodes.GETSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
        mv.visitLdcInsn("BODY RAN ");
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL, "java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;", false);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/io/PrintStream", "println", "(Ljava/lang/String;)V", false);
        mv.visitLdcInsn("charged ");
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(
                Opcodes.INVOKEVIRTUAL, "java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;", false);
        mv.visitInsn(Opcodes.ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static int poolCount(byte[] classFile) {
        return ((classFile[8] & 0xff) << 8) | (classFile[9] & 0xff);
    }
}
