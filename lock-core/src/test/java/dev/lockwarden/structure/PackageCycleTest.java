package dev.lockwarden.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No dependency cycle between lock-core's machinery packages ({@code internal}, {@code store},
 * {@code inspect}, ...), read from the sources' references.
 * <p>
 * The API package {@code dev.lockwarden} is left out of the cycle check on purpose: it is the
 * composition root. Every package uses its types (exceptions, handles, LockInfo), and its
 * {@code LockManager.Builder.build()} creates and wires the machinery, so the edge goes both ways by
 * design — as in Lettuce, whose {@code io.lettuce.core.RedisClient} builds the {@code protocol}
 * package that in turn uses {@code io.lettuce.core} types. Moving the wiring elsewhere would only
 * move that edge ({@code build()} must reach it) or hide it behind a service lookup. What is checked
 * instead: only {@code LockManager} in the API package names a machinery package (see the package
 * documentation of {@code dev.lockwarden} and lock-core's README, "Package structure"); no cycle of
 * classes spans packages (the API package included), read from the classes' references; and the lower
 * layers ({@code store}, {@code config}) name nothing above them.
 */
class PackageCycleTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/lockwarden");
    private static final Pattern REFERENCE = Pattern.compile("dev\\.lockwarden\\.([a-z]+)\\.[A-Z]");
    /** lock-core's packages that its module does not export to applications. */
    private static final Set<String> MACHINERY = Set.of("internal", "store", "inspect", "metrics");

    @Test
    void machineryPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        assertTrue(uses.containsKey("store") && uses.containsKey("internal"), "sources not found: " + uses.keySet());
        List<String> cycles = new ArrayList<>();
        for (String from : uses.keySet()) {
            for (String to : uses.get(from)) {
                if (reaches(uses, to, from, new TreeSet<>())) {
                    cycles.add(from + " -> " + to + " -> ... -> " + from);
                }
            }
        }
        assertEquals(List.of(), cycles, "package cycles in lock-core: " + uses);
    }

    @Test
    void inTheApiPackageOnlyTheBuilderNamesTheMachinery() throws IOException {
        List<String> others = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = REFERENCE.matcher(Files.readString(f));
                while (m.find()) {
                    if (MACHINERY.contains(m.group(1))
                            && !f.getFileName().toString().equals("LockManager.java")) {
                        others.add(f.getFileName() + " -> " + m.group(1));
                    }
                }
            }
        }
        assertEquals(
                List.of(), others, "API classes other than LockManager (the composition root) name machinery packages");
    }

    @Test
    void noClassCycleSpansPackages() throws IOException {
        Map<String, Set<String>> uses = classReferences();
        assertTrue(uses.containsKey("LockManager") && uses.containsKey("store.RedisNodeClient"), "sources not found");
        List<String> spanning = new ArrayList<>();
        for (Set<String> cycle : cycles(uses)) {
            if (cycle.stream().map(PackageCycleTest::packageOf).distinct().count() > 1) {
                spanning.add(cycle.toString());
            }
        }
        assertEquals(List.of(), spanning, "classes of different packages that reference each other in a cycle");
    }

    /**
     * {@code store} and {@code config} are below the engine, the inspector, metrics and the SPI: they name none of
     * them, and of the API package only its exceptions (the errors every layer reports: Redis down is a
     * {@code LockStoreException}) and {@code LockSource} (stored with each holder); {@code config} names no other
     * package at all.
     */
    @Test
    void lowerLayersNameNothingAboveThem() throws IOException {
        Map<String, Set<String>> uses = classReferences();
        List<String> upward = new ArrayList<>();
        uses.forEach((from, targets) -> {
            String layer = packageOf(from);
            if (!layer.equals("store") && !layer.equals("config")) {
                return;
            }
            for (String to : targets) {
                String target = packageOf(to);
                boolean allowed = target.equals(layer)
                        || (layer.equals("store") && target.equals("config"))
                        || (layer.equals("store")
                                && target.isEmpty()
                                && (to.endsWith("Exception") || to.equals("LockSource")));
                if (!allowed) {
                    upward.add(from + " -> " + to);
                }
            }
        });
        assertEquals(List.of(), upward, "references from a lower layer (store, config) up into a higher one");
    }

    @Test
    void theCheckSeesACycleOfClasses() {
        Map<String, Set<String>> uses =
                Map.of("A", Set.of("x.B"), "x.B", Set.of("x.C"), "x.C", Set.of("A"), "x.D", Set.of("A"));
        assertEquals(List.of(Set.of("A", "x.B", "x.C")), cycles(uses));
        assertEquals(List.of(), cycles(Map.of("A", Set.of("x.B"), "x.B", Set.of())));
    }

    @Test
    void theCheckSeesACycle() {
        Map<String, Set<String>> cyclic = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"));
        assertTrue(reaches(cyclic, "b", "a", new TreeSet<>()));
        assertTrue(!reaches(Map.of("a", Set.of("b"), "b", Set.of()), "b", "a", new TreeSet<>()));
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (reaches(uses, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** "" for the API package, else the subpackage of {@code dev.lockwarden} a class (as "pkg.Name") is in. */
    private static String packageOf(String cls) {
        int dot = cls.lastIndexOf('.');
        return dot < 0 ? "" : cls.substring(0, dot);
    }

    /** The cycles of a graph: its strongly connected components of more than one node. */
    private static List<Set<String>> cycles(Map<String, Set<String>> uses) {
        List<Set<String>> out = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String start : new TreeSet<>(uses.keySet())) {
            if (done.contains(start)) {
                continue;
            }
            Set<String> forward = reachable(uses, start);
            Set<String> component = new TreeSet<>();
            for (String other : forward) {
                if (reachable(uses, other).contains(start)) {
                    component.add(other);
                }
            }
            component.add(start);
            done.addAll(component);
            if (component.size() > 1) {
                out.add(component);
            }
        }
        return out;
    }

    private static Set<String> reachable(Map<String, Set<String>> uses, String from) {
        Set<String> seen = new TreeSet<>();
        List<String> todo = new ArrayList<>(List.of(from));
        while (!todo.isEmpty()) {
            for (String next : uses.getOrDefault(todo.remove(todo.size() - 1), Set.of())) {
                if (seen.add(next)) {
                    todo.add(next);
                }
            }
        }
        return seen;
    }

    /**
     * Each main class ("pkg.Name", "Name" in the API package) with the lock-core classes its source names:
     * by qualified name (imports included) or, in its own package, by simple name. Comments and string
     * literals are left out.
     */
    private static Map<String, Set<String>> classReferences() throws IOException {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String file = f.getFileName().toString();
                if (file.equals("package-info.java")) {
                    continue;
                }
                String pkg = SOURCES.relativize(f).getParent() == null
                        ? ""
                        : SOURCES.relativize(f).getParent().toString().replace('/', '.');
                String code = codeOnly(Files.readString(f));
                sources.put((pkg.isEmpty() ? "" : pkg + ".") + file.substring(0, file.length() - 5), code);
            }
        }
        Pattern qualified = Pattern.compile("dev\\.lockwarden\\.((?:[a-z]+\\.)*)([A-Z]\\w*)");
        Map<String, Set<String>> uses = new TreeMap<>();
        sources.forEach((cls, code) -> {
            Set<String> to = new TreeSet<>();
            Matcher m = qualified.matcher(code);
            while (m.find()) {
                to.add(m.group(1) + m.group(2));
            }
            String pkg = packageOf(cls);
            for (String other : sources.keySet()) {
                if (packageOf(other).equals(pkg)) {
                    String simple = other.substring(other.lastIndexOf('.') + 1);
                    if (Pattern.compile("\\b" + simple + "\\b").matcher(code).find()) {
                        to.add(other);
                    }
                }
            }
            to.retainAll(sources.keySet());
            to.remove(cls);
            uses.put(cls, to);
        });
        return uses;
    }

    /** {@code source} without its comments and the contents of its string and char literals. */
    static String codeOnly(String source) {
        StringBuilder out = new StringBuilder(source.length());
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < source.length() && source.charAt(i + 1) == '/') {
                while (i < source.length() && source.charAt(i) != '\n') {
                    i++;
                }
                out.append('\n');
            } else if (c == '/' && i + 1 < source.length() && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 1;
                out.append(' ');
            } else if (c == '"' || c == '\'') {
                for (i++; i < source.length() && source.charAt(i) != c; i++) {
                    if (source.charAt(i) == '\\') {
                        i++;
                    }
                }
                out.append(c).append(c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    @Test
    void commentsAndLiteralsAreNoReferences() {
        assertEquals(
                "a \"\" b '' c\n  d",
                codeOnly("a \"redis://x\\\" dev.lockwarden.A\" b '\\'' c// dev.lockwarden.B\n /* C */d"));
    }

    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path rel = SOURCES.relativize(f);
                if (rel.getNameCount() < 2) {
                    continue; // the API package itself
                }
                String pkg = rel.getName(0).toString();
                Set<String> to = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(Files.readString(f));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        to.add(m.group(1));
                    }
                }
            }
        }
        return uses;
    }
}
