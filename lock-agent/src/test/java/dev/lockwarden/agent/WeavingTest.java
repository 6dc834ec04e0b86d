package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigException;
import dev.lockwarden.agent.config.AgentConfigParser;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The weaving in-process, every shape the agent must take: classes compiled at test time are loaded through a class
 * loader that hands each class file to the agent's transformer ({@link GatedTransformer}, as the JVM would) and
 * defines what it returns; the calls go through the real bridge and runtime to a real redis-server. Static and
 * instance methods with every primitive kind, an overload chosen by parameter types, varargs, {@code synchronized},
 * a nested and an inner class, an interface's default method and an implementation found through {@code +}, an
 * abstract base's concrete method locked for its subclass, SKIP returning each type's default, an exception released
 * and passed through, a Java 6 class file, and constructors never locked. {@code holdAtLeast} keeps each lock after
 * its call, so Redis shows which calls took one.
 */
@Timeout(120)
class WeavingTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private static final Map<String, String> SOURCES = Map.of(
            "com/acme/shapes/Shapes.java",
            "package com.acme.shapes;\n"
                    + "public class Shapes {\n"
                    + "  private int counter;\n"
                    + "  public static double half(double x) { return x / 2; }\n"
                    + "  public long sum(long a, int b, double c, boolean d, String[] e) {"
                    + " return a + b + (long) c + (d ? 1 : 0) + e.length; }\n"
                    + "  public String charge(String id) { return \"one \" + id; }\n"
                    + "  public String charge(String id, int cents) { return \"two \" + id + cents; }\n"
                    + "  public String join(String... parts) { return String.join(\"+\", parts); }\n"
                    + "  public synchronized int bump() { return ++counter; }\n"
                    + "  public String fail(String id) { throw new IllegalArgumentException(\"boom \" + id); }\n"
                    + "  public String outer(String id) throws InterruptedException { String[] r = new String[1];"
                    + " Thread t = new Thread(() -> r[0] = skipInt(id) + \" \" + skipObj(id) + \" \" + skipBool(id)"
                    + " + \" \" + skipLong(id) + \" \" + skipDouble(id) + \" \" + (int) skipChar(id));"
                    + " t.start(); t.join(); return r[0]; }\n"
                    + "  public int skipInt(String id) { return 1; }\n"
                    + "  public long skipLong(String id) { return 1000L; }\n"
                    + "  public double skipDouble(String id) { return 10000.0; }\n"
                    + "  public boolean skipBool(String id) { return true; }\n"
                    + "  public char skipChar(String id) { return 'x'; }\n"
                    + "  public Object skipObj(String id) { return \"x\"; }\n"
                    + "  public static class Nested { public String work(String id) { return \"nested \" + id; } }\n"
                    + "  public class Inner { public String work(String id) { return \"inner \" + id + counter; } }\n"
                    + "}\n",
            "com/acme/shapes/Greeter.java",
            "package com.acme.shapes;\n"
                    + "public interface Greeter { default String greet(String n) { return \"hi \" + n; } }\n",
            "com/acme/shapes/G.java",
            "package com.acme.shapes;\npublic class G implements Greeter { }\n",
            "com/acme/shapes/Handler.java",
            "package com.acme.shapes;\npublic interface Handler { String handle(String id); }\n",
            "com/acme/shapes/CardHandler.java",
            "package com.acme.shapes;\n"
                    + "public class CardHandler implements Handler {"
                    + " public String handle(String id) { return \"card \" + id; } }\n",
            "com/acme/shapes/AbstractBase.java",
            "package com.acme.shapes;\n"
                    + "public abstract class AbstractBase {"
                    + " public String run(String id) { return kind() + \" \" + id; }"
                    + " protected abstract String kind(); }\n",
            "com/acme/shapes/Sub.java",
            "package com.acme.shapes;\n"
                    + "public class Sub extends AbstractBase { protected String kind() { return \"sub\"; } }\n",
            "com/acme/shapes/Made.java",
            "package com.acme.shapes;\n"
                    + "public class Made { public static int made; public Made() { made++; }"
                    + " public String make(String id) { return \"made \" + id; } }\n");

    private static final String OLD = "package com.acme.old;\n"
            + "public class Legacy { public String charge(String id) { return \"charged \" + id; } }\n";

    private static final List<String> RULES = List.of(
            "com.acme.shapes.Shapes#half key=\"w:half:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Shapes#sum key=\"w:sum:{a}\" holdAtLeast=20s",
            "com.acme.shapes.Shapes#charge(java.lang.String, int) key=\"w:charge:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Shapes#join(java.lang.String[]) key=\"w:join:{method}\" holdAtLeast=20s",
            "com.acme.shapes.Shapes#bump key=\"w:bump\" holdAtLeast=20s",
            "com.acme.shapes.Shapes#fail key=\"w:fail:{0}\"",
            "com.acme.shapes.Shapes#outer key=\"w:s:{0}\"",
            "com.acme.shapes.Shapes#skip* key=\"w:s:{0}\" onBusy=SKIP",
            "com.acme.shapes.Shapes$Nested#work key=\"w:nested:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Shapes$Inner#work key=\"w:inner:{class}:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Greeter+#greet key=\"w:greet:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Handler+#handle(..) key=\"w:handle:{class}:{0}\" holdAtLeast=20s",
            "com.acme.shapes.AbstractBase+#run key=\"w:run:{class}:{0}\" holdAtLeast=20s",
            "com.acme.shapes.Made#* key=\"w:made\" holdAtLeast=20s",
            "com.acme.old.Legacy#charge key=\"w:old:{0}\" holdAtLeast=20s");

    @TempDir
    Path dir;

    private AgentRuntime runtime;
    private AgentReport report;
    private Weaving loader;

    @BeforeEach
    void weave() throws Exception {
        redis.flushAll();
        Path classes = compile();
        List<String> lines = new ArrayList<>(List.of("redis = " + redis.uri()));
        lines.addAll(RULES);
        AgentConfig config = AgentConfigParser.parse("weave.conf", lines);
        runtime = new AgentRuntime(config);
        assertTrue(LockBridge.install(runtime), "no other runtime installed");
        report = new AgentReport(config);
        GatedTransformer transformer = new GatedTransformer(
                new NameFilter(config.rules()),
                new MethodPlanner(config.rules()),
                new Binder(runtime, report),
                report,
                null);
        loader = new Weaving(classes, transformer);
    }

    @AfterEach
    void uninstall() {
        LockBridge.uninstall(runtime);
        runtime.locks().close();
    }

    @Test
    void everyShapeIsLockedAndBehavesAsBefore() throws Exception {
        Object shapes = newInstance("com.acme.shapes.Shapes");
        assertEquals(2.5, call(null, "com.acme.shapes.Shapes", "half", new Class<?>[] {double.class}, 5.0));
        assertEquals(
                9L,
                call(
                        shapes,
                        "com.acme.shapes.Shapes",
                        "sum",
                        new Class<?>[] {long.class, int.class, double.class, boolean.class, String[].class},
                        1L,
                        2,
                        3.5,
                        true,
                        new String[] {"x", "y"}));
        assertEquals("one c1", call(shapes, "com.acme.shapes.Shapes", "charge", new Class<?>[] {String.class}, "c1"));
        assertEquals(
                "two c25",
                call(shapes, "com.acme.shapes.Shapes", "charge", new Class<?>[] {String.class, int.class}, "c2", 5));
        assertEquals("a+b", call(shapes, "com.acme.shapes.Shapes", "join", new Class<?>[] {String[].class}, (Object)
                new String[] {"a", "b"}));
        assertEquals(1, call(shapes, "com.acme.shapes.Shapes", "bump", new Class<?>[0]));
        InvocationTargetException failed = assertThrows(
                InvocationTargetException.class,
                () -> call(shapes, "com.acme.shapes.Shapes", "fail", new Class<?>[] {String.class}, "f1"));
        assertEquals("boom f1", failed.getCause().getMessage(), "the body's exception reaches the caller unchanged");
        // the second thread finds outer's lock held: SKIP returns 0, null, false, 0L, 0.0 and '\0'
        assertEquals(
                "0 null false 0 0.0 0",
                call(shapes, "com.acme.shapes.Shapes", "outer", new Class<?>[] {String.class}, "o1"));
        assertEquals(
                "nested n1",
                call(
                        newInstance("com.acme.shapes.Shapes$Nested"),
                        "com.acme.shapes.Shapes$Nested",
                        "work",
                        new Class<?>[] {String.class},
                        "n1"));
        Class<?> innerType = loader.loadClass("com.acme.shapes.Shapes$Inner");
        Object inner = innerType.getConstructor(shapes.getClass()).newInstance(shapes);
        assertEquals("inner i11", call(inner, innerType.getName(), "work", new Class<?>[] {String.class}, "i1"));
        assertEquals(
                "hi g1",
                call(
                        newInstance("com.acme.shapes.G"),
                        "com.acme.shapes.Greeter",
                        "greet",
                        new Class<?>[] {String.class},
                        "g1"));
        assertEquals(
                "card h1",
                call(
                        newInstance("com.acme.shapes.CardHandler"),
                        "com.acme.shapes.CardHandler",
                        "handle",
                        new Class<?>[] {String.class},
                        "h1"));
        assertEquals(
                "sub r1",
                call(
                        newInstance("com.acme.shapes.Sub"),
                        "com.acme.shapes.AbstractBase",
                        "run",
                        new Class<?>[] {String.class},
                        "r1"));
        Object made = newInstance("com.acme.shapes.Made");
        assertEquals("0", exists("w:made"), "constructors are never locked");
        assertEquals("made m1", call(made, "com.acme.shapes.Made", "make", new Class<?>[] {String.class}, "m1"));
        assertEquals(
                "charged p1",
                call(
                        newInstance("com.acme.old.Legacy"),
                        "com.acme.old.Legacy",
                        "charge",
                        new Class<?>[] {String.class},
                        "p1"));

        for (String key : List.of(
                "w:half:5.0",
                "w:sum:1",
                "w:charge:c2",
                "w:join:join",
                "w:bump",
                "w:nested:n1",
                "w:inner:Inner:i1",
                "w:greet:g1",
                "w:handle:CardHandler:h1",
                "w:run:AbstractBase:r1",
                "w:made",
                "w:old:p1")) {
            assertEquals("1", exists(key), key + " was taken (and kept by holdAtLeast)");
        }
        assertEquals("0", exists("w:fail:f1"), "released after the exception");
        assertEquals("0", exists("w:s:o1"), "released after return");
        assertEquals(List.of(), report.problems());
        List<String> matched = report.matchedMethods();
        for (String method : List.of(
                "com.acme.shapes.Shapes#half(double)",
                "com.acme.shapes.Shapes#sum(long, int, double, boolean, java.lang.String[])",
                "com.acme.shapes.Shapes#charge(java.lang.String, int)",
                "com.acme.shapes.Shapes#join(java.lang.String[])",
                "com.acme.shapes.Shapes#skipChar(java.lang.String)",
                "com.acme.shapes.Shapes$Inner#work(java.lang.String)",
                "com.acme.shapes.Greeter#greet(java.lang.String)",
                "com.acme.shapes.CardHandler#handle(java.lang.String)",
                "com.acme.shapes.AbstractBase#run(java.lang.String)",
                "com.acme.shapes.Made#make(java.lang.String)",
                "com.acme.old.Legacy#charge(java.lang.String)")) {
            assertTrue(matched.stream().anyMatch(m -> m.endsWith(": " + method)), method + " in " + matched);
        }
        assertTrue(
                matched.stream().noneMatch(m -> m.endsWith("com.acme.shapes.Shapes#charge(java.lang.String)")),
                "the other overload is not locked: " + matched);
        assertTrue(
                matched.stream().noneMatch(m -> m.contains("Sub#") || m.contains("<init>")),
                "the subclass inherits the base's locked body; constructors never: " + matched);
    }

    @Test
    void constructorsCannotBeNamed() {
        AgentConfigException e = assertThrows(
                AgentConfigException.class,
                () -> AgentConfigParser.parse("c.conf", List.of("com.acme.shapes.Made#<init> key=\"x\"")));
        assertTrue(e.getMessage().contains("constructors and static initialisers cannot be locked"), e.getMessage());
    }

    private String exists(String key) {
        return redis.node(0).command("EXISTS", "lock:{" + key + "}");
    }

    private Object newInstance(String name) throws Exception {
        return loader.loadClass(name).getConstructor().newInstance();
    }

    private Object call(Object target, String declaring, String method, Class<?>[] types, Object... args)
            throws Exception {
        Method m = loader.loadClass(declaring).getMethod(method, types);
        return m.invoke(target, args);
    }

    private Path compile() throws IOException {
        Path src = dir.resolve("src");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, String> e : SOURCES.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f.toString());
        }
        javac(classes, "17", files);
        Path old = src.resolve("com/acme/old/Legacy.java");
        Files.createDirectories(old.getParent());
        Files.writeString(old, OLD);
        javac(classes, OldClassFiles.oldestRelease(), List.of(old.toString()));
        OldClassFiles.lowerToJava6(classes.resolve("com/acme/old/Legacy.class"));
        return classes;
    }

    private static void javac(Path classes, String release, List<String> files) {
        List<String> args =
                new ArrayList<>(List.of("--release", release, "-nowarn", "-parameters", "-d", classes.toString()));
        args.addAll(files);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, out, out, args.toArray(String[]::new));
        assertEquals(0, rc, "javac --release " + release + ": " + out);
    }

    /** Defines the test's classes from their class files through the transformer, as the JVM does for an agent. */
    private static final class Weaving extends ClassLoader {
        private final Path classes;
        private final GatedTransformer transformer;

        Weaving(Path classes, GatedTransformer transformer) {
            super(WeavingTest.class.getClassLoader());
            this.classes = classes;
            this.transformer = transformer;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.acme.shapes.") && !name.startsWith("com.acme.old.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = read(name);
                    byte[] woven = transformer.transform(null, this, name.replace('.', '/'), null, null, bytes);
                    byte[] defined = woven != null ? woven : bytes;
                    c = defineClass(name, defined, 0, defined.length);
                }
                return c;
            }
        }

        @Override
        protected URL findResource(String name) {
            Path f = classes.resolve(name);
            try {
                return Files.isRegularFile(f) ? f.toUri().toURL() : null;
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }

        private byte[] read(String name) throws ClassNotFoundException {
            try {
                return Files.readAllBytes(classes.resolve(name.replace('.', '/') + ".class"));
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
