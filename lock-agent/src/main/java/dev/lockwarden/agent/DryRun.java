package dev.lockwarden.agent;

import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.MethodPlanner.Planned;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

/**
 * What the agent would instrument in an application, without running it: every class file of the given jars and
 * directories is planned exactly as the running agent plans a loading class.
 */
public final class DryRun {
    /**
     * @param methods      per rule ({@code file:line}), the methods it would instrument ({@code Class#method(types)})
     * @param problems     everything that would stop the JVM or fail calls, with {@code file:line}
     * @param unmatched    rules that match no method
     * @param classes      class files read
     * @param unreadable   classes that could not be resolved (a missing dependency), so subtype rules may miss them
     */
    public record Result(
            Map<String, List<String>> methods,
            List<String> problems,
            List<LockRule> unmatched,
            int classes,
            List<String> unreadable) {
        /** True when nothing is wrong. */
        public boolean ok() {
            return problems.isEmpty() && unmatched.isEmpty();
        }
    }

    private DryRun() {}

    /** Plans every class of {@code classPath} (jar files and class directories) under {@code config}. */
    public static Result run(AgentConfig config, List<Path> classPath) throws IOException {
        List<URL> urls = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Path entry : classPath) {
            if (Files.isDirectory(entry)) {
                names.addAll(classesIn(entry));
            } else if (Files.isRegularFile(entry)) {
                names.addAll(classesInJar(entry));
            } else {
                throw new IOException(entry + " is neither a jar file nor a directory of classes");
            }
            urls.add(entry.toUri().toURL());
        }
        MethodPlanner planner = new MethodPlanner(config.rules());
        Map<String, List<String>> methods = new LinkedHashMap<>();
        config.rules().forEach(r -> methods.put(r.where(), new ArrayList<>()));
        List<String> problems = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        // only the loader's resources are read (class files), nothing is loaded; the JDK's through the platform loader
        try (URLClassLoader files =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            TypePool pool = TypePools.of(ClassFileLocator.ForClassLoader.of(files));
            for (String name : names) {
                try {
                    TypePool.Resolution resolution = pool.describe(name);
                    if (!resolution.isResolved()) {
                        continue;
                    }
                    TypeDescription type = resolution.resolve();
                    if (!planner.named(type, pool)) {
                        continue;
                    }
                    Plan plan = planner.plan(type, pool);
                    problems.addAll(Preflight.problems(plan));
                    for (Planned p : plan.methods()) {
                        methods.get(p.rule().where())
                                .add(p.signature() + (p.key() != null ? "  key \"" + p.key() + "\"" : "  REJECTED"));
                    }
                } catch (RuntimeException e) {
                    unreadable.add(name + " (" + e.getMessage() + ")");
                }
            }
        }
        List<LockRule> unmatched = config.rules().stream()
                .filter(r -> methods.get(r.where()).isEmpty())
                .toList();
        return new Result(methods, problems, unmatched, names.size(), unreadable);
    }

    private static List<String> classesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir, 64)) {
            return files.filter(f -> isClass(dir.relativize(f).toString().replace('\\', '/')))
                    .map(f -> toName(dir.relativize(f).toString().replace('\\', '/')))
                    .toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static List<String> classesInJar(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream()
                    .map(JarEntry::getName)
                    .filter(DryRun::isClass)
                    .map(DryRun::toName)
                    .toList();
        }
    }

    private static boolean isClass(String path) {
        return path.endsWith(".class")
                && !path.endsWith("module-info.class")
                && !path.endsWith("package-info.class")
                && !path.startsWith("META-INF/");
    }

    private static String toName(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
