package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A class file older than Java 7 (major version 50, no stack map frames required) is woven by Byte Buddy's advice
 * (which writes no stack map frames for it) and locked all the same. The class is compiled for
 * the oldest release javac writes ({@link OldClassFiles}) and its version lowered to 50 (Java 6), which the JVM
 * verifies with the old verifier.
 */
@Timeout(120)
class OldClassFileIT extends RedisAgentTestBase {
    private static final String LEGACY = "package com.acme.old;\n"
            + "public class Legacy {\n"
            + "  public String charge(String id) { return \"charged \" + id; }\n"
            + "  public static void main(String[] args) {\n"
            + "    System.out.println(\"RESULT \" + new Legacy().charge(\"p1\"));\n"
            + "  }\n"
            + "}\n";

    @Test
    void aJava6ClassIsWovenByByteBuddyAndLocked() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/com/acme/old"));
        Files.writeString(src.resolve("Legacy.java"), LEGACY);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ByteArrayOutputStream javacOut = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        javacOut,
                        javacOut,
                        "--release",
                        OldClassFiles.oldestRelease(),
                        "-nowarn",
                        "-d",
                        classes.toString(),
                        src.resolve("Legacy.java").toString());
        assertEquals(0, rc, "javac: " + javacOut);
        OldClassFiles.lowerToJava6(classes.resolve("com/acme/old/Legacy.class"));

        Path config =
                config("old.conf", "com.acme.old.Legacy#charge(java.lang.String) key=\"old:{0}\" holdAtLeast=20s");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-verbose:class",
                ChildJvm.javaagent(config),
                "-cp",
                classes.toString(),
                "com.acme.old.Legacy");
        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(cmd).start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("RESULT charged p1\n"), "the method still returns its result\n" + app);
            assertTrue(
                    app.stderr().contains("instrumented com.acme.old.Legacy#charge(java.lang.String)"), app.toString());
            assertTrue(
                    app.stdout().contains("shaded.net.bytebuddy.asm.Advice "),
                    "a class file older than Java 7 is woven by Byte Buddy's advice\n" + app);
            assertEquals(
                    "1",
                    redis.node(0).command("EXISTS", "lock:{old:p1}"),
                    "the call took its lock (kept by holdAtLeast)");
        }
    }
}
