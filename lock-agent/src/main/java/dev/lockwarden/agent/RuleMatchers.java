package dev.lockwarden.agent;

import dev.lockwarden.agent.config.LockRule;
import dev.lockwarden.agent.config.Names;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * The matchers of one rule on Byte Buddy's type descriptions, kept strict: a plain name matches exactly that name,
 * {@code *} matches any run of characters within one name ({@code com.acme.*Job} does not reach
 * {@code com.acme.sub.XJob}), {@code +} matches the type and every subtype; methods must be concrete, non-native,
 * non-synthetic and non-bridge ({@link #lockable}). Small classes rather than lambdas and a hand-written wildcard match
 * ({@link Names#wildcard}) rather than regular expressions, because this runs in {@code premain}, where the first
 * lambda or regex is start-up time the application waits for.
 */
final class RuleMatchers {
    /** Bounds a super-type walk (a cycle in broken class files, absurd hierarchies). */
    private static final int MAX_TYPES = 10_000;

    private RuleMatchers() {}

    /** Class names the rule's class pattern accepts (without {@code +}). */
    static Predicate<String> className(LockRule rule) {
        return new Name(rule.className(), '.');
    }

    /** Whether the rule names this class (for {@code +}: the type or one of its super types matches). */
    static boolean types(LockRule rule, Predicate<String> name, TypeDescription type, TypePool pool) {
        return rule.subtypes() ? hasSuperType(type, name, pool) : name.test(type.getName());
    }

    /** Methods the rule names by name and parameter types, lockable or not (so that the rest can be reported). */
    static Predicate<MethodDescription> named(LockRule rule) {
        return new Method(
                new Name(rule.methodName(), '.'), rule.parameterTypes().orElse(null));
    }

    /** Whether {@code name} matches {@code pattern} ({@link Names#wildcard}). */
    static boolean wildcard(String pattern, String name, char separator) {
        return Names.wildcard(pattern, name, separator);
    }

    /** A method, not a constructor or type initialiser. */
    static boolean isMethod(MethodDescription m) {
        return m.isMethod();
    }

    /** What a lock can be woven around: a concrete, non-native, compiler-visible method. */
    static boolean lockable(MethodDescription m) {
        return m.isMethod() && !m.isAbstract() && !m.isNative() && !m.isSynthetic() && !m.isBridge();
    }

    /** Parameter types as Java names: {@code java.lang.String[]}, {@code int}, {@code com.acme.Outer$Inner}. */
    static String typeName(TypeDefinition type) {
        return type.asErasure().getActualName();
    }

    /** {@code name(java.lang.String, long)}. */
    static String signature(MethodDescription m) {
        StringBuilder s = new StringBuilder(m.getInternalName()).append('(');
        List<TypeDescription> types = m.getParameters().asTypeList().asErasures();
        for (int i = 0; i < types.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(typeName(types.get(i)));
        }
        return s.append(')').toString();
    }

    /**
     * Whether {@code type} itself or any of its super classes or interfaces (transitively) has a name that
     * {@code name} accepts. Throws {@link IllegalStateException} naming a super type whose class file is missing
     * before a match is found (so a subtype rule never silently misses a class).
     */
    static boolean hasSuperType(TypeDescription type, Predicate<String> name, TypePool pool) {
        if (name.test(type.getName())) {
            return true;
        }
        Deque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
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
            TypePool.Resolution r = pool.describe(next);
            if (!r.isResolved()) {
                missing = missing != null ? missing : next;
            } else {
                push(todo, seen, r.resolve());
            }
        }
        if (missing != null) {
            throw new IllegalStateException("cannot resolve the super type " + missing + " of " + type.getName());
        }
        return false;
    }

    /** Super type names from the class file's own entries (no resolution of the super types themselves). */
    private static void push(Deque<String> todo, Set<String> seen, TypeDescription m) {
        TypeDescription.Generic superClass = m.getSuperClass();
        if (superClass != null) {
            String s = superClass.asErasure().getName();
            if (seen.add(s)) {
                todo.push(s);
            }
        }
        for (TypeDescription i : m.getInterfaces().asErasures()) {
            if (seen.add(i.getName())) {
                todo.push(i.getName());
            }
        }
    }

    private static String normal(String typeName) {
        return typeName.replace('$', '.').replace(" ", "");
    }

    /** An exact name, or a {@code *} pattern within one name. */
    private static final class Name implements Predicate<String> {
        private final String pattern;
        private final char separator;
        private final boolean wild;

        Name(String pattern, char separator) {
            this.pattern = pattern;
            this.separator = separator;
            this.wild = pattern.indexOf('*') >= 0;
        }

        @Override
        public boolean test(String name) {
            return wild ? wildcard(pattern, name, separator) : pattern.equals(name);
        }
    }

    /** A method (not a constructor) with a matching name and, if the rule lists them, these parameter types. */
    private static final class Method implements Predicate<MethodDescription> {
        private final Name name;
        private final List<String> wanted;

        Method(Name name, List<String> wanted) {
            this.name = name;
            this.wanted = wanted;
        }

        @Override
        public boolean test(MethodDescription m) {
            if (!m.isMethod() || !name.test(m.getInternalName())) {
                return false;
            }
            if (wanted == null) {
                return true;
            }
            List<TypeDescription> actual = m.getParameters().asTypeList().asErasures();
            if (actual.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!normal(typeName(actual.get(i))).equals(normal(wanted.get(i)))) {
                    return false;
                }
            }
            return true;
        }
    }
}
