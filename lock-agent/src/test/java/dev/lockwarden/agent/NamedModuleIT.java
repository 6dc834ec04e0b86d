package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application in a named module (run with {@code -m}): named modules do not read the unnamed module the bridge
 * lives in, so the agent must add that read edge or every call would fail.
 */
@Timeout(120)
class NamedModuleIT extends RedisAgentTestBase {
    @Test
    void methodsOfANamedModuleAreLocked() throws Exception {
        Path src = dir.resolve("src");
        Path pkg = Files.createDirectories(src.resolve("com/acme/mod"));
        Files.writeString(src.resolve("module-info.java"), "module com.acme.mod { exports com.acme.mod; }\n");
        Files.writeString(
                pkg.resolve("Pay.java"),
                "package com.acme.mod;\n"
                        + "public class Pay {\n"
                        + "  public String pay(String id) { return \"paid \" + id; }\n"
                        + "  public static void main(String[] a) { System.out.println(\"MODULE \" + Pay.class.getModule().getName()"
                        + " + \" \" + new Pay().pay(\"m1\")); }\n"
                        + "}\n");
        Path out = Files.createDirectories(dir.resolve("mods/com.acme.mod"));
        int rc = ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        null,
                        null,
                        "--release",
                        "17",
                        "-d",
                        out.toString(),
                        src.resolve("module-info.java").toString(),
                        pkg.resolve("Pay.java").toString());
        assertEquals(0, rc, "javac");
        Path config = config("mod.conf", "com.acme.mod.Pay#pay key=\"mod:{0}\" holdAtLeast=20s");
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                ChildJvm.javaagent(config),
                "--module-path",
                dir.resolve("mods").toString(),
                "-m",
                "com.acme.mod/com.acme.mod.Pay"));
        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(cmd).start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("MODULE com.acme.mod paid m1"), app.toString());
            assertTrue(
                    app.stderr().contains("instrumented com.acme.mod.Pay#pay(java.lang.String) (" + config + ":2)"),
                    app.toString());
            assertEquals(
                    "1",
                    redis.node(0).command("EXISTS", "lock:{mod:m1}"),
                    "the call took its lock (kept by holdAtLeast)\n" + app);
        }
    }
}
