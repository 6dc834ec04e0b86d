package dev.lockwarden.agent;

import java.util.List;
import java.util.StringJoiner;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.lockwarden.agent.ClassModel.MethodModel;
import dev.lockwarden.agent.config.LockRule;

/**
 * The matchers of one rule, kept strict: a plain name matches exactly that name, {@code *} matches any run of
 * characters within one name ({@code com.acme.*Job} does not reach {@code com.acme.sub.XJob}), {@code +} matches the
 * type and every subtype; methods must be concrete, non-native, non-synthetic and non-bridge
 * ({@link MethodModel#lockable()}). Plain string and regex work on {@link ClassModel}s.
 */
final class RuleMatchers {
    private RuleMatchers() {
    }

    /** Class names the rule's class pattern accepts (without {@code +}). */
    static Predicate<String> className(LockRule rule) {
        if (rule.className().contains("*")) {
            Pattern p = Pattern.compile(regex(rule.className()));
            return n -> p.matcher(n).matches();
        }
        String exact = rule.className();
        return exact::equals;
    }

    /** Whether the rule names this class (for {@code +}: the type or one of its super types matches). */
    static boolean types(LockRule rule, Predicate<String> name, ClassModel type, TypeResolver resolver) {
        return rule.subtypes() ? resolver.hasSuperType(type, name) : name.test(type.name());
    }

    /** Methods the rule names by name and parameter types, lockable or not (so that the rest can be reported). */
    static Predicate<MethodModel> named(LockRule rule) {
        Predicate<String> name;
        if (rule.methodName().contains("*")) {
            Pattern p = Pattern.compile(regex(rule.methodName()));
            name = n -> p.matcher(n).matches();
        } else {
            name = rule.methodName()::equals;
        }
        Predicate<MethodModel> m = x -> x.isMethod() && name.test(x.name());
        return rule.parameterTypes().isPresent() ? m.and(parameters(rule.parameterTypes().get())) : m;
    }

    private static Predicate<MethodModel> parameters(List<String> wanted) {
        return m -> {
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
        };
    }

    private static String normal(String typeName) {
        return typeName.replace('$', '.').replace(" ", "");
    }

    /** {@code *} = any characters except the package separator; everything else literal. */
    static String regex(String pattern) {
        StringJoiner regex = new StringJoiner("[^.]*");
        for (String part : pattern.split("\\*", -1)) {
            regex.add(part.isEmpty() ? "" : Pattern.quote(part));
        }
        return regex.toString();
    }
}
