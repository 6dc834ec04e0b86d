package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameMatches;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.util.List;
import java.util.StringJoiner;
import java.util.regex.Pattern;

import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Byte Buddy matchers for one rule, kept strict: a plain name matches exactly that name, {@code *} matches any run
 * of characters within one name ({@code com.acme.*Job} does not reach {@code com.acme.sub.XJob}), {@code +}
 * matches the type and every subtype; methods must be concrete, non-native, non-synthetic and non-bridge.
 */
final class RuleMatchers {
    /** What advice can handle: plain, concrete, non-native, compiler-visible methods. */
    static final ElementMatcher<MethodDescription> LOCKABLE =
            isMethod().and(not(isAbstract())).and(not(isNative())).and(not(isSynthetic())).and(not(isBridge()));

    private RuleMatchers() {
    }

    /** Classes the rule names (without the method condition). */
    static ElementMatcher.Junction<TypeDescription> types(LockRule rule) {
        ElementMatcher.Junction<TypeDescription> name = rule.className().contains("*")
                ? nameMatches(regex(rule.className())) : net.bytebuddy.matcher.ElementMatchers.named(rule.className());
        return rule.subtypes() ? hasSuperType(name) : name;
    }

    /** Methods the rule names by name and parameter types, lockable or not (so that the rest can be reported). */
    static ElementMatcher.Junction<MethodDescription> named(LockRule rule) {
        ElementMatcher.Junction<MethodDescription> name = rule.methodName().contains("*")
                ? nameMatches(regex(rule.methodName())) : net.bytebuddy.matcher.ElementMatchers.named(rule.methodName());
        ElementMatcher.Junction<MethodDescription> m = isMethod().and(name);
        return rule.parameterTypes().isPresent() ? m.and(parameters(rule.parameterTypes().get())) : m;
    }

    /** Methods of a class the rule would instrument: named, and lockable. */
    static ElementMatcher.Junction<MethodDescription> lockable(LockRule rule) {
        return named(rule).and(LOCKABLE);
    }

    private static ElementMatcher<MethodDescription> parameters(List<String> wanted) {
        return m -> {
            List<TypeDescription> actual = m.getParameters().asTypeList().asErasures();
            if (actual.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!normal(actual.get(i).getActualName()).equals(normal(wanted.get(i)))) {
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
