package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The weaving itself in a child JVM under {@code -javaagent}, on method shapes compiled at test time, all woven by
 * Byte Buddy's inline advice (the agent's one weaver; {@code WeavingTest} runs more shapes in-process), an
 * interface's default method included. Checks arguments and results of every primitive kind,
 * static and instance, {@code synchronized}, an exception (the lock is released), SKIP returning the default of each
 * return type, and that the method keeps its annotations and parameter names.
 */
@Timeout(120)
class WeavingIT extends RedisAgentTestBase {
    private static final String SHAPES = "package com.acme.weave;\n"
            + "import java.lang.annotation.*;\n"
            + "import java.util.Arrays;\n"
            + "public class Shapes {\n"
            + "  @Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface Marker { String value(); }\n"
            + "  private int counter;\n"
            + "  @Marker(\"kept\") public long sum(long a, int b, double c, boolean d, String[] e) {"
            + " return a + b + (long) c + (d ? 1 : 0) + e.length; }\n"
            + "  public static double half(double x) { return x / 2; }\n"
            + "  public synchronized void bump() { counter++; }\n"
            + "  public String fail(String id) { throw new IllegalArgumentException(\"boom \" + id); }\n"
            + "  public int outer(String id) throws InterruptedException { int[] r = new int[1];"
            + " Thread t = new Thread(() -> r[0] = skipInt(id) + (skipObj(id) == null ? 10 : 0) + (skipBool(id) ? 100 : 0)"
            + " + (int) skipLong(id) + (int) skipDouble(id) + skipChar(id)); t.start(); t.join(); return r[0]; }\n"
            + "  public int skipInt(String id) { return 1; }\n"
            + "  public long skipLong(String id) { return 1000L; }\n"
            + "  public double skipDouble(String id) { return 10000.0; }\n"
            + "  public boolean skipBool(String id) { return true; }\n"
            + "  public char skipChar(String id) { return 'x'; }\n"
            + "  public Object skipObj(String id) { return \"x\"; }\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    Shapes s = new Shapes();\n"
            + "    System.out.println(\"SUM \" + s.sum(1L, 2, 3.5, true, new String[] {\"x\", \"y\"}));\n"
            + "    System.out.println(\"HALF \" + half(5.0));\n"
            + "    s.bump(); System.out.println(\"BUMP \" + s.counter);\n"
            + "    try { s.fail(\"f1\"); } catch (IllegalArgumentException e) { System.out.println(\"FAILED \" + e.getMessage()); }\n"
            + "    System.out.println(\"OUTER \" + s.outer(\"o1\"));\n"
            + "    java.lang.reflect.Method sum = Shapes.class.getMethod(\"sum\", long.class, int.class, double.class, boolean.class, String[].class);\n"
            + "    System.out.println(\"ANNOTATION \" + sum.getAnnotation(Marker.class).value());\n"
            + "    System.out.println(\"PARAMS \" + Arrays.toString(Arrays.stream(sum.getParameters()).map(p -> p.getName()).toArray()));\n"
            + "    System.out.println(\"ADDED \" + Arrays.stream(Shapes.class.getDeclaredMethods())"
            + ".filter(m -> m.getName().contains(\"lockwarden\")).count());\n"
            + "    System.out.println(\"GREET \" + new G().greet(\"g1\"));\n"
            + "  }\n"
            + "}\n"
            + "interface Greeter { default String greet(String n) { return \"hi \" + n; } }\n"
            + "class G implements Greeter { }\n";

    @Test
    void everyMethodShapeIsLockedAndBehavesAsBefore() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/com/acme/weave"));
        Files.writeString(src.resolve("Shapes.java"), SHAPES);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        int rc = ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        null,
                        null,
                        "--release",
                        "17",
                        "-parameters",
                        "-d",
                        classes.toString(),
                        src.resolve("Shapes.java").toString());
        assertEquals(0, rc, "javac");
        Path config = config(
                "weave.conf",
                "com.acme.weave.Shapes#sum key=\"w:sum:{a}\" holdAtLeast=20s",
                "com.acme.weave.Shapes#half key=\"w:half:{0}\" holdAtLeast=20s",
                "com.acme.weave.Shapes#bump key=\"w:bump\" holdAtLeast=20s",
                "com.acme.weave.Shapes#fail key=\"w:fail:{0}\"",
                "com.acme.weave.Shapes#outer key=\"w:s:{0}\"",
                "com.acme.weave.Shapes#skip* key=\"w:s:{0}\" onBusy=SKIP",
                "com.acme.weave.Greeter+#greet key=\"w:greet:{0}\" holdAtLeast=20s");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-verbose:class",
                ChildJvm.javaagent(config),
                "-cp",
                classes.toString(),
                "com.acme.weave.Shapes");
        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(cmd).start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            String out = app.stdout();
            assertTrue(out.contains("SUM 9\n"), app.toString());
            assertTrue(out.contains("HALF 2.5\n"), app.toString());
            assertTrue(out.contains("BUMP 1\n"), app.toString());
            assertTrue(out.contains("FAILED boom f1\n"), "the body's exception reaches the caller unchanged\n" + app);
            // outer's second thread finds the lock held by outer, so SKIP returns 0, null, false, 0L, 0.0, '\0'
            assertTrue(out.contains("OUTER 10\n"), app.toString());
            assertTrue(out.contains("ANNOTATION kept\n"), "the woven method keeps its annotations\n" + app);
            assertTrue(out.contains("PARAMS [a, b, c, d, e]\n"), "and its parameter names\n" + app);
            assertTrue(out.contains("GREET hi g1\n"), app.toString());
            for (String method : List.of(
                    "sum(long, int, double, boolean, java.lang.String[])",
                    "half(double)",
                    "bump()",
                    "fail(java.lang.String)",
                    "outer(java.lang.String)",
                    "skipInt(java.lang.String)",
                    "skipObj(java.lang.String)")) {
                assertTrue(app.stderr().contains("instrumented com.acme.weave.Shapes#" + method), method + "\n" + app);
            }
            assertTrue(
                    app.stderr().contains("instrumented com.acme.weave.Greeter#greet(java.lang.String)"),
                    app.toString());
            assertEquals(
                    "1", redis.node(0).command("EXISTS", "lock:{w:sum:1}"), "sum took its lock (kept by holdAtLeast)");
            assertEquals("1", redis.node(0).command("EXISTS", "lock:{w:half:5.0}"), "static with a double");
            assertEquals("1", redis.node(0).command("EXISTS", "lock:{w:bump}"), "synchronized");
            assertEquals("1", redis.node(0).command("EXISTS", "lock:{w:greet:g1}"), "the interface's default method");
            assertEquals("0", redis.node(0).command("EXISTS", "lock:{w:fail:f1}"), "released after the exception");
            assertTrue(out.contains("shaded.net.bytebuddy.asm.Advice "), "woven by Byte Buddy's advice\n" + app);
            assertTrue(out.contains("ADDED 0\n"), "no method is added to the class\n" + app);
        }
    }
}
