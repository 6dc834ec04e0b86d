package dev.lockwarden.checks;

import dev.lockwarden.checks.JavaSource.Type;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every type declared in the repository's Java sources (all modules but this one, main and test, nested
 * types too), read with {@link JavaSource}: what a README's code block may name, and the public API of
 * every module without putting the modules on this module's class path. JDK types, and library types
 * that the sources import, are known by name; the JDK types a source type extends are read by reflection.
 */
final class JavaIndex {
    private final Repo repo;
    private final Map<String, List<Type>> bySimple = new HashMap<>();
    private final Map<String, Type> byQualified = new HashMap<>();
    private final Map<JavaSource, Path> files = new IdentityHashMap<>();
    /** Simple names the sources import from outside the repository: library types that exist. */
    private final Set<String> imported = new HashSet<>();

    private final Map<String, Boolean> jdk = new HashMap<>();
    private List<String> jdkPackages;

    /** A method found: whether one exists (or the type's methods cannot all be known), and its return type if ours. */
    record Lookup(boolean exists, Optional<Type> returns) {}

    private record Candidate(int parameters, Optional<Type> returns) {}

    JavaIndex(Repo repo) {
        this.repo = repo;
        for (Path p : repo.javaSources()) {
            JavaSource source = new JavaSource(repo.read(p));
            files.put(source, p);
            for (Type t : source.types) {
                bySimple.computeIfAbsent(t.name, n -> new ArrayList<>()).add(t);
                byQualified.put(t.qualifiedName(), t);
            }
            source.imports.forEach((simple, qualified) -> {
                if (!qualified.startsWith("dev.lockwarden.")) {
                    imported.add(simple);
                }
            });
        }
    }

    /** Whether a type of that simple name is declared in the repository. */
    boolean declares(String simpleName) {
        return bySimple.containsKey(simpleName);
    }

    /** Whether a source of the repository imports a type of that simple name from a library. */
    boolean imported(String simpleName) {
        return imported.contains(simpleName);
    }

    /** Whether a public type of that simple name is in an exported {@code java.*} or {@code javax.*} package. */
    boolean inJdk(String simpleName) {
        return jdk.computeIfAbsent(simpleName, n -> {
            for (String p : jdkPackages()) {
                try {
                    Class<?> c = Class.forName(p + "." + n, false, ClassLoader.getSystemClassLoader());
                    if (Modifier.isPublic(c.getModifiers())) {
                        return true;
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    // not in this package
                }
            }
            return false;
        });
    }

    private List<String> jdkPackages() {
        if (jdkPackages == null) {
            jdkPackages = ModuleLayer.boot().modules().stream()
                    .flatMap(m -> m.getDescriptor().exports().stream())
                    .filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source)
                    .filter(p -> p.startsWith("java.") || p.startsWith("javax."))
                    .sorted()
                    .toList();
        }
        return jdkPackages;
    }

    /**
     * The type of a module's API that a code block means by that simple name: the only one declared in main
     * sources; or else the one of those the page names in full ({@code mentioned}), the one of the page's own
     * module, or the only public one of a published module. Empty when none or ambiguous.
     */
    Optional<Type> api(String simpleName, Set<String> mentioned, String module) {
        List<Type> main = bySimple.getOrDefault(simpleName, List.of()).stream()
                .filter(this::isMain)
                .toList();
        if (main.size() == 1) {
            return Optional.of(main.get(0));
        }
        for (List<Type> narrowed : List.of(
                main.stream().filter(t -> mentioned.contains(t.qualifiedName())).toList(),
                main.stream().filter(t -> module(t).equals(module)).toList(),
                main.stream().filter(t -> t.isPublic() && isPublished(t)).toList())) {
            if (narrowed.size() == 1) {
                return Optional.of(narrowed.get(0));
            }
        }
        return Optional.empty();
    }

    boolean isMain(Type t) {
        return files.get(t.source).toString().replace('\\', '/').contains("/src/main/java/");
    }

    boolean isPublished(Type t) {
        return repo.isPublished(module(t));
    }

    String module(Type t) {
        return repo.moduleOf(files.get(t.source));
    }

    /** The repository's type that {@code written} (a simple or qualified name) means in {@code context}'s file. */
    Optional<Type> resolve(String written, Type context) {
        if (byQualified.containsKey(written)) {
            return Optional.of(byQualified.get(written));
        }
        String simple = written.substring(written.lastIndexOf('.') + 1);
        for (Type t = context; t != null; t = t.outer) {
            if (t.name.equals(simple)) {
                return Optional.of(t);
            }
            for (Type m : t.members) {
                if (m.name.equals(simple)) {
                    return Optional.of(m);
                }
            }
        }
        JavaSource s = context.source;
        if (s.imports.containsKey(simple)) {
            return Optional.ofNullable(byQualified.get(s.imports.get(simple)));
        }
        Type same = byQualified.get(s.pkg.isEmpty() ? simple : s.pkg + "." + simple);
        if (same != null) {
            return Optional.of(same);
        }
        for (String w : s.wildcards) {
            Type t = byQualified.get(w + "." + simple);
            if (t != null) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** A class outside the repository that {@code written} means in {@code context}'s file, when it can be loaded. */
    Optional<Class<?>> load(String written, Type context) {
        JavaSource s = context.source;
        String simple = written.substring(written.lastIndexOf('.') + 1);
        List<String> names = new ArrayList<>();
        names.add(written);
        if (s.imports.containsKey(simple)) {
            names.add(s.imports.get(simple));
        }
        names.add("java.lang." + simple);
        s.wildcards.forEach(w -> names.add(w + "." + simple));
        for (String n : names) {
            try {
                return Optional.of(Class.forName(n, false, getClass().getClassLoader()));
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next
            }
        }
        return Optional.empty();
    }

    /**
     * The public method {@code name} of the type (declared, or inherited from a type of the repository or
     * one that can be loaded), preferring one whose parameters are present or absent as in the call, then one
     * returning a type of the repository.
     */
    Lookup method(Type type, String name, boolean noArguments) {
        List<Candidate> found = new ArrayList<>();
        boolean open = collect(type, name, found, new HashSet<>());
        if (found.isEmpty()) {
            return new Lookup(open, Optional.empty());
        }
        Candidate best = found.stream()
                .min(Comparator.comparingInt((Candidate c) -> (c.parameters == 0) == noArguments ? 0 : 1)
                        .thenComparingInt(c -> c.returns.isPresent() ? 0 : 1))
                .orElseThrow();
        return new Lookup(true, best.returns);
    }

    /** Adds the methods called {@code name} to {@code found}; true when the type's methods cannot all be known. */
    private boolean collect(Type type, String name, List<Candidate> found, Set<Type> seen) {
        if (!seen.add(type)) {
            return false;
        }
        for (JavaSource.Method m : type.methods) {
            if (m.name().equals(name) && type.isPublic(m.modifiers())) {
                found.add(new Candidate(m.parameters(), resolve(m.returns(), type)));
            }
        }
        List<Class<?>> implicit = new ArrayList<>(List.of(Object.class));
        if (type.kind.equals("enum")) {
            implicit.add(Enum.class);
            if (name.equals("values") || name.equals("valueOf")) {
                found.add(new Candidate(name.equals("values") ? 0 : 1, Optional.empty()));
            }
        } else if (type.kind.equals("record")) {
            implicit.add(Record.class);
        }
        implicit.forEach(c -> reflect(c, name, found));
        boolean open = false;
        for (String s : type.superclasses) {
            open |= supertype(type, s, name, found, seen, true);
        }
        for (String s : type.interfaces) {
            open |= supertype(type, s, name, found, seen, type.isInterface());
        }
        return open;
    }

    /**
     * A supertype's methods. One outside the repository that cannot be loaded leaves the type open when its
     * methods are inherited unseen: a superclass, or an interface's super-interface. An interface a class
     * implements does not: the class declares its abstract methods itself.
     */
    private boolean supertype(
            Type type, String written, String name, List<Candidate> found, Set<Type> seen, boolean inherited) {
        Optional<Type> ours = resolve(written, type);
        if (ours.isPresent()) {
            return collect(ours.get(), name, found, seen);
        }
        Optional<Class<?>> loaded = load(written, type);
        if (loaded.isPresent()) {
            reflect(loaded.get(), name, found);
            return false;
        }
        return inherited;
    }

    private static void reflect(Class<?> c, String name, List<Candidate> found) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                found.add(new Candidate(m.getParameterCount(), Optional.empty()));
            }
        }
    }

    /** Whether the type (or a supertype of the repository) has a public constant or static field of that name. */
    boolean hasConstant(Type type, String name) {
        return hasConstant(type, name, new HashSet<>());
    }

    private boolean hasConstant(Type type, String name, Set<Type> seen) {
        if (!seen.add(type)) {
            return false;
        }
        if (type.constants.contains(name)) {
            return true;
        }
        for (JavaSource.Field f : type.fields) {
            if (f.name().equals(name) && type.isPublic(f.modifiers())) {
                return true;
            }
        }
        List<String> supers = new ArrayList<>(type.superclasses);
        supers.addAll(type.interfaces);
        for (String s : supers) {
            Optional<Type> ours = resolve(s, type);
            if (ours.isPresent()) {
                if (hasConstant(ours.get(), name, seen)) {
                    return true;
                }
                continue;
            }
            Optional<Class<?>> loaded = load(s, type);
            if (loaded.isEmpty()
                    || Arrays.stream(loaded.get().getFields())
                            .anyMatch(f -> f.getName().equals(name))) {
                return true; // there, or in a supertype that cannot be read
            }
        }
        return false;
    }

    /** The public member type of that name, declared in the type or one of its supertypes in the repository. */
    Optional<Type> memberType(Type type, String name) {
        for (Type m : type.members) {
            if (m.name.equals(name) && m.isPublic()) {
                return Optional.of(m);
            }
        }
        List<String> supers = new ArrayList<>(type.superclasses);
        supers.addAll(type.interfaces);
        for (String s : supers) {
            Optional<Type> found = resolve(s, type).flatMap(t -> memberType(t, name));
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** Whether some of the type's supertypes are neither in the repository nor loadable. */
    boolean hasUnknownSupertype(Type type) {
        List<String> supers = new ArrayList<>(type.superclasses);
        supers.addAll(type.interfaces);
        return supers.stream()
                .anyMatch(s -> resolve(s, type)
                        .map(this::hasUnknownSupertype)
                        .orElseGet(() -> load(s, type).isEmpty()));
    }

    /** The type of that qualified name ({@code a.b.Outer.Inner} or {@code a.b.Outer$Inner}). */
    Optional<Type> qualified(String name) {
        return Optional.ofNullable(byQualified.get(name.replace('$', '.')));
    }

    /** The types of the repository with that simple name. */
    List<Type> named(String simpleName) {
        return bySimple.getOrDefault(simpleName, List.of());
    }
}
