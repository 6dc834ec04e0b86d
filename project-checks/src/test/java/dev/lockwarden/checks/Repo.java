package dev.lockwarden.checks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the repository holds, read once: its Java sources by qualified and simple name, the text of
 * every source, script and configuration file (to find a setting's name), and its Maven modules.
 */
final class Repo {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Set<String> SKIP_DIRS = Set.of("target", ".git", "node_modules", "generated");

    final Path root;
    private final Set<String> qualifiedClasses = new HashSet<>();
    private final java.util.Map<String, Integer> simpleClasses = new java.util.HashMap<>();
    private final List<Path> sources = new ArrayList<>();
    private final List<Path> javaSources = new ArrayList<>();
    private final Set<String> modules = new HashSet<>();
    private String allSourceText;
    private Set<String> settings;

    Repo(Path root) {
        this.root = root.toAbsolutePath().normalize();
        scan();
    }

    /** The repository root seen from a module's directory (Maven runs tests there). */
    static Repo fromModuleDir() {
        return new Repo(Path.of(System.getProperty("user.dir")).resolve(".."));
    }

    boolean hasClass(String qualifiedName) {
        return qualifiedClasses.contains(qualifiedName);
    }

    boolean hasSimpleClass(String simpleName) {
        return simpleClasses.containsKey(simpleName);
    }

    /** How many source files define a class of this simple name. */
    int simpleClassCount(String simpleName) {
        return simpleClasses.getOrDefault(simpleName, 0);
    }

    boolean isModule(String path) {
        return modules.contains(path);
    }

    /** The module paths of the build ({@code lock-core}, {@code examples/legacy-app}, …). */
    Set<String> modules() {
        return modules;
    }

    /** The Java source files of every module but this one, main and test. */
    List<Path> javaSources() {
        return javaSources;
    }

    /** The module a file belongs to: the longest module path it is under, or "" for the root. */
    String moduleOf(Path file) {
        String rel =
                root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
        String best = "";
        for (String m : modules) {
            if (rel.startsWith(m + "/") && m.length() > best.length()) {
                best = m;
            }
        }
        return best;
    }

    /** Whether the module is published: its POM does not skip the deploy. */
    boolean isPublished(String module) {
        Path pom = root.resolve(module).resolve("pom.xml");
        return isModule(module)
                && Files.isRegularFile(pom)
                && !read(pom).contains("<maven.deploy.skip>true</maven.deploy.skip>");
    }

    /** Whether {@code text} occurs in a file other than Markdown: a source, script, POM or config file. */
    boolean sourcesContain(String text) {
        return allSourceText.contains(text);
    }

    /** Every {@code lockwarden.*} name that occurs in a source, script or configuration file. */
    Set<String> settingsInSources() {
        if (settings == null) {
            settings = new HashSet<>();
            Matcher m = DocChecker.SETTING.matcher(allSourceText);
            while (m.find()) {
                settings.add(m.group());
            }
        }
        return settings;
    }

    String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** README.md and every module's README.md (one level down, and examples' modules). */
    List<Path> readmes() {
        List<Path> r = new ArrayList<>();
        r.add(root.resolve("README.md"));
        for (String m : modules) {
            Path p = root.resolve(m).resolve("README.md");
            if (Files.isRegularFile(p)) {
                r.add(p);
            }
        }
        r.sort(null);
        return r;
    }

    private void scan() {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> notSkipped(root.relativize(p)))
                    .filter(Files::isRegularFile)
                    .forEach(p -> {
                        String name = p.getFileName().toString();
                        if (name.endsWith(".java")) {
                            addClass(p);
                            if (!p.startsWith(root.resolve("project-checks"))) {
                                javaSources.add(p);
                            }
                        }
                        // this module's own sources name things that do not exist on purpose (the planted pages)
                        if (!name.endsWith(".md")
                                && !name.endsWith(".png")
                                && !name.endsWith(".jar")
                                && !p.startsWith(root.resolve("project-checks"))
                                && size(p) < 2_000_000) {
                            sources.add(p);
                            text.append(read(p)).append('\n');
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        allSourceText = text.toString();
        readModules(root.resolve("pom.xml"), "");
    }

    private static boolean notSkipped(Path relative) {
        for (Path part : relative) {
            if (SKIP_DIRS.contains(part.toString())) {
                return false;
            }
        }
        return true;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private void addClass(Path file) {
        String rel = root.relativize(file).toString().replace('\\', '/');
        int java = rel.indexOf("/java/");
        if (java < 0 || !rel.contains("src/")) {
            return;
        }
        String qualified = rel.substring(java + "/java/".length(), rel.length() - ".java".length())
                .replace('/', '.');
        qualifiedClasses.add(qualified);
        simpleClasses.merge(qualified.substring(qualified.lastIndexOf('.') + 1), 1, Integer::sum);
    }

    private void readModules(Path pom, String prefix) {
        if (!Files.isRegularFile(pom)) {
            return;
        }
        Matcher m = MODULE.matcher(read(pom));
        while (m.find()) {
            String module = prefix + m.group(1).strip();
            modules.add(module);
            readModules(root.resolve(module).resolve("pom.xml"), module + "/");
        }
    }
}
