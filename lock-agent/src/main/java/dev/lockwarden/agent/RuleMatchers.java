package dev.lockwarden.agent;

import dev.lockwarden.agent.ClassModel.MethodModel;
import dev.lockwarden.agent.config.LockRule;
import dev.lockwarden.agent.config.Names;
import java.util.List;
import java.util.function.Predicate;

/**
 * The matchers of one rule, kept strict: a plain name matches exactly that name, {@code *} matches any run of
 * characters within one name ({@code com.acme.*Job} does not reach {@code com.acme.sub.XJob}), {@code +} matches the
 * type and every subtype; methods must be concrete, non-native, non-synthetic and non-bridge
 * ({@link MethodModel#lockable()}). Plain string work on {@link ClassModel}s: small classes rather than lambdas and
 * a hand-written wildcard match ({@link Names#wildcard}) rather than regular expressions, because this runs in {@code premain}, where the
 * first lambda or regex is start-up time the application waits for.
 */
final class RuleMatchers {
    private RuleMatchers() {}

    /** Class names the rule's class pattern accepts (without {@code +}). */
    static Predicate<String> className(LockRule rule) {
        return new Name(rule.className(), '.');
    }

    /** Whether the rule names this class (for {@code +}: the type or one of its super types matches). */
    static boolean types(LockRule rule, Predicate<String> name, ClassModel type, TypeResolver resolver) {
        return rule.subtypes() ? resolver.hasSuperType(type, name) : name.test(type.name());
    }

    /** Methods the rule names by name and parameter types, lockable or not (so that the rest can be reported). */
    static Predicate<MethodModel> named(LockRule rule) {
        return new Method(
                new Name(rule.methodName(), '.'), rule.parameterTypes().orElse(null));
    }

    /** Whether {@code name} matches {@code pattern} ({@link Names#wildcard}). */
    static boolean wildcard(String pattern, String name, char separator) {
        return Names.wildcard(pattern, name, separator);
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
    private static final class Method implements Predicate<MethodModel> {
        private final Name name;
        private final List<String> wanted;

        Method(Name name, List<String> wanted) {
            this.name = name;
            this.wanted = wanted;
        }

        @Override
        public boolean test(MethodModel m) {
            if (!m.isMethod() || !name.test(m.name())) {
                return false;
            }
            if (wanted == null) {
                return true;
            }
            List<String> actual = m.parameterTypes();
            if (actual.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!normal(actual.get(i)).equals(normal(wanted.get(i)))) {
                    return false;
                }
            }
            return true;
        }
    }
}
