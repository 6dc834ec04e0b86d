package dev.lockwarden.agent;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.config.LockRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Predicate;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * Decides, for one class, which of its declared methods each rule locks and with which key. Used by the running
 * agent, by the pre-main check and by the {@code check} command, so all three agree. A method that a rule names
 * but that cannot be locked safely (bad key, matched by two rules) is still planned — with its problem, so that
 * calls to it fail instead of running unlocked. Works on Byte Buddy's type descriptions read from class files
 * ({@link TypePools}). Loops rather than
 * streams and lambdas: the pre-main check runs it, and their first use costs start-up time.
 */
final class MethodPlanner {
    private final List<LockRule> rules;
    private final List<Predicate<String>> classNames = new ArrayList<>();
    private final List<Predicate<MethodDescription>> methods = new ArrayList<>();

    /** One method under one rule: {@code key} is set, or {@code problem} says why calls must fail. */
    record Planned(LockRule rule, String className, MethodDescription method, KeyTemplate key, String problem) {
        String methodId() {
            return className + "#" + method.getInternalName();
        }

        String signature() {
            return className + "#" + RuleMatchers.signature(method);
        }
    }

    /** What a class gets: the planned methods and the problems of rules that name it but none of its methods. */
    record Plan(List<Planned> methods, List<String> problems) {
        boolean isEmpty() {
            return methods.isEmpty() && problems.isEmpty();
        }
    }

    MethodPlanner(List<LockRule> rules) {
        this.rules = List.copyOf(rules);
        for (LockRule r : rules) {
            classNames.add(RuleMatchers.className(r));
            methods.add(RuleMatchers.named(r));
        }
    }

    List<LockRule> rules() {
        return rules;
    }

    /** Whether any rule's class pattern matches (cheap pre-check). */
    boolean named(TypeDescription type, TypePool pool) {
        for (int i = 0; i < rules.size(); i++) {
            if (RuleMatchers.types(rules.get(i), classNames.get(i), type, pool)) {
                return true;
            }
        }
        return false;
    }

    Plan plan(TypeDescription type, TypePool pool) {
        Map<MethodDescription, List<LockRule>> byMethod = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            LockRule rule = rules.get(i);
            if (!RuleMatchers.types(rule, classNames.get(i), type, pool)) {
                continue;
            }
            List<MethodDescription> named = new ArrayList<>();
            for (MethodDescription m : type.getDeclaredMethods()) {
                if (methods.get(i).test(m)) {
                    named.add(m);
                }
            }
            if (named.isEmpty() && rule.exactClass()) {
                problems.add(missing(rule, type));
            }
            for (MethodDescription m : named) {
                if (RuleMatchers.lockable(m)) {
                    List<LockRule> matching = byMethod.get(m);
                    if (matching == null) {
                        matching = new ArrayList<>();
                        byMethod.put(m, matching);
                    }
                    matching.add(rule);
                } else if (!rule.methodName().contains("*") && !rule.subtypes()) {
                    problems.add(
                            rule.where() + ": " + type.getName() + "#" + RuleMatchers.signature(m)
                                    + " is abstract, native, synthetic or a bridge method — name the concrete method that does the work");
                }
            }
        }
        List<Planned> planned = new ArrayList<>();
        for (Map.Entry<MethodDescription, List<LockRule>> e : byMethod.entrySet()) {
            planned.add(planOne(type, e.getKey(), e.getValue(), pool));
        }
        return new Plan(planned, problems);
    }

    private static Planned planOne(TypeDescription type, MethodDescription m, List<LockRule> matching, TypePool pool) {
        LockRule rule = matching.get(0);
        String where = type.getName() + "#" + RuleMatchers.signature(m);
        if (matching.size() > 1) {
            StringJoiner wheres = new StringJoiner(" and ");
            StringJoiner specs = new StringJoiner(" and ");
            for (LockRule r : matching) {
                wheres.add(r.where());
                specs.add(r.spec());
            }
            return new Planned(
                    rule,
                    type.getName(),
                    m,
                    null,
                    wheres + ": rules " + specs + " both match " + where
                            + " — make the patterns disjoint (one rule per method)");
        }
        try {
            return new Planned(rule, type.getName(), m, KeyCheck.resolve(rule, type, m, pool), null);
        } catch (IllegalArgumentException e) {
            String fix = e.getMessage().contains(" — ") ? "" : " — fix key=\"...\"";
            return new Planned(
                    rule,
                    type.getName(),
                    m,
                    null,
                    rule.where() + ": " + e.getMessage() + " (method " + where + ")" + fix);
        }
    }

    private static String missing(LockRule rule, TypeDescription type) {
        StringJoiner sameName = new StringJoiner(", ");
        for (MethodDescription m : type.getDeclaredMethods()) {
            if (m.isMethod() && m.getInternalName().equals(rule.methodName())) {
                sameName.add(RuleMatchers.signature(m));
            }
        }
        return rule.where() + ": " + type.getName() + " has no method "
                + rule.spec().substring(rule.classPattern().length() + 1)
                + (sameName.length() == 0 ? "" : "; its methods named " + rule.methodName() + " are " + sameName)
                + " — fix the rule (it protects nothing)";
    }
}
