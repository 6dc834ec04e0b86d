package dev.lockwarden.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds {@link ClassModel}s by name from class files — through a class loader's resources, as Byte Buddy's
 * {@code TypePool} did — without loading any class. Used for super types ({@code +} rules) and key checks (does a
 * parameter type override {@code toString()}). Caches per instance; one instance per class being woven or check.
 */
final class TypeResolver {
    /** Bounds a super-type walk (a cycle in broken class files, absurd hierarchies). */
    private static final int MAX_TYPES = 10_000;

    private final Function<String, byte[]> classFiles;
    private final Map<String, ClassModel> cache = new HashMap<>();

    /** @param classFiles binary name → class file bytes, or null when there is none */
    TypeResolver(Function<String, byte[]> classFiles) {
        this.classFiles = classFiles;
    }

    /** Class files through {@code loader}'s resources (the system loader for null, so JDK types resolve too). */
    static TypeResolver of(ClassLoader loader) {
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        return new TypeResolver(new Resources(l));
    }

    /** Class files as resources of one loader (a class, not a lambda: used in premain). */
    private static final class Resources implements Function<String, byte[]> {
        private final ClassLoader loader;

        Resources(ClassLoader loader) {
            this.loader = loader;
        }

        @Override
        public byte[] apply(String name) {
            return read(loader, name);
        }
    }

    /** {@code loader}'s class files, with {@code bytes} standing in for class {@code name} (the one being loaded). */
    TypeResolver with(String name, ClassModel model) {
        cache.put(name, model);
        return this;
    }

    static byte[] read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** The model of {@code name}, or null when no class file is found; throws on a malformed class file. */
    ClassModel resolve(String name) {
        ClassModel m = cache.get(name);
        if (m == null && !cache.containsKey(name)) {
            byte[] bytes = classFiles.apply(name);
            m = bytes == null ? null : ClassModel.read(bytes);
            cache.put(name, m);
        }
        return m;
    }

    /**
     * Whether {@code type} itself or any of its super classes or interfaces (transitively) has a name that
     * {@code name} accepts. Throws {@link IllegalStateException} naming a super type whose class file is missing
     * before a match is found (so a subtype rule never silently misses a class).
     */
    boolean hasSuperType(ClassModel type, Predicate<String> name) {
        Deque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        if (name.test(type.name())) {
            return true;
        }
        push(todo, seen, type);
        String missing = null;
        while (!todo.isEmpty() && seen.size() < MAX_TYPES) {
            String next = todo.pop();
            if (name.test(next)) {
                return true;
            }
            if (next.startsWith("java.")) {
                continue; // only the JDK defines java.*, and a JDK type never extends an application type
            }
            ClassModel m = resolve(next);
            if (m == null) {
                missing = missing != null ? missing : next;
            } else {
                push(todo, seen, m);
            }
        }
        if (missing != null) {
            throw new IllegalStateException("cannot resolve the super type " + missing + " of " + type.name());
        }
        return false;
    }

    private static void push(Deque<String> todo, Set<String> seen, ClassModel m) {
        if (m.superName() != null && seen.add(m.superName())) {
            todo.push(m.superName());
        }
        for (String i : m.interfaces()) {
            if (seen.add(i)) {
                todo.push(i);
            }
        }
    }
}
