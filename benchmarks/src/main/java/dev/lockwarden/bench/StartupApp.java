package dev.lockwarden.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Generates the start-up benchmark's application: {@code n} small classes in packages {@code gen.p0…}
 * plus {@code gen.Main}, which loads and initialises every one of them and exits. Compiled with the
 * JDK's compiler (javax.tools) and packed into one jar, as an application would ship.
 */
final class StartupApp {
    static final String MAIN = "gen.Main";
    /** The one method the agent config names. */
    static final String RULE = "gen.p0.C0#value(java.lang.String) key=\"gen:{0}\"";

    private static final int PER_PACKAGE = 500;

    private StartupApp() {}

    /**
     * Writes sources under {@code dir}, compiles them, returns the jar. With {@code logs}, {@code main} first writes
     * one java.util.logging INFO line, as an application that logs its start does (so it sets up JUL itself).
     */
    static Path build(Path dir, int n, boolean logs) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler (javax.tools): run the benchmark with a JDK, not a JRE");
        }
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String pkg = "p" + (i / PER_PACKAGE);
            Path f = Files.createDirectories(src.resolve("gen").resolve(pkg)).resolve("C" + i + ".java");
            // a field, a static initialiser and two methods: small, but not empty
            Files.writeString(
                    f,
                    "package gen." + pkg + ";\npublic class C" + i + " {\n"
                            + "  static final long SEED;\n  static { SEED = " + i + "L * 31; }\n"
                            + "  private int calls;\n"
                            + "  public static String value(String s) { return s + SEED; }\n"
                            + "  public int next() { return ++calls; }\n}\n",
                    StandardCharsets.UTF_8);
            files.add(f.toString());
        }
        Path main = src.resolve("gen").resolve("Main.java");
        Files.writeString(
                main,
                "package gen;\npublic class Main {\n"
                        + "  public static void main(String[] a) throws Exception {\n"
                        + (logs ? "    java.util.logging.Logger.getLogger(\"gen\").info(\"starting\");\n" : "")
                        + "    int n = " + n + ";\n    for (int i = 0; i < n; i++) {\n"
                        + "      Class.forName(\"gen.p\" + (i / " + PER_PACKAGE + ") + \".C\" + i);\n    }\n"
                        + "    System.out.println(\"loaded \" + n);\n  }\n}\n",
                StandardCharsets.UTF_8);
        files.add(main.toString());
        Path argFile = dir.resolve("sources.txt");
        Files.write(argFile, files, StandardCharsets.UTF_8);
        int rc = javac.run(null, null, System.err, "-nowarn", "-g:none", "-d", classes.toString(), "@" + argFile);
        if (rc != 0) {
            throw new IllegalStateException("javac failed on the generated start-up app (exit " + rc + ")");
        }
        return jar(classes, dir.resolve("app.jar"));
    }

    private static Path jar(Path classes, Path jar) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, MAIN);
        try (OutputStream os = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(os, mf);
                Stream<Path> walk = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                Files.copy(p, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
