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
 * documentation of {@code dev.lockwarden} and lock-core's README, "Package structure").
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
                    if (MACHINERY.contains(m.group(1)) && !f.getFileName().toString().equals("LockManager.java")) {
                        others.add(f.getFileName() + " -> " + m.group(1));
                    }
                }
            }
        }
        assertEquals(List.of(), others, "API classes other than LockManager (the composition root) name machinery packages");
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
