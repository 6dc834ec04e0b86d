package dev.lockwarden.agent;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.ClassModel.MethodModel;
import dev.lockwarden.agent.config.LockRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Predicate;

/**
 * Decides, for one class, which of its declared methods each rule locks and with which key. Used by the running
 * agent, by the pre-main check and by the {@code check} command, so all three agree. A method that a rule names
 * but that cannot be locked safely (bad key, matched by two rules) is still planned — with its problem, so that
 * calls to it fail instead of running unlocked. Works on {@link ClassModel}s read from class files. Loops rather than
 * streams and lambdas: the pre-main check runs it, and their first use costs start-up time.
 */
final class MethodPlanner {
    private final List<LockRule> rules;
    private final List<Predicate<String>> classNames = new ArrayList<>();
    private final List<Predicate<MethodModel>> methods = new ArrayList<>();

    /** One method under one rule: {@code key} is set, or {@code problem} says why calls must fail. */
    record Planned(LockRule rule, String className, MethodModel method, KeyTemplate key, String problem) {
        String methodId() {
            return className + "#" + method.name();
        }

        String signature() {
            return className + "#" + method.signature();
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
    boolean named(ClassModel type, TypeResolver resolver) {
        for (int i = 0; i < rules.size(); i++) {
            if (RuleMatchers.types(rules.get(i), classNames.get(i), type, resolver)) {
                return true;
            }
        }
        return false;
    }

    Plan plan(ClassModel type, TypeResolver resolver) {
        Map<MethodModel, List<LockRule>> byMethod = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            LockRule rule = rules.get(i);
            if (!RuleMatchers.types(rule, classNames.get(i), type, resolver)) {
                continue;
            }
            List<MethodModel> named = new ArrayList<>();
            for (MethodModel m : type.methods()) {
                if (methods.get(i).test(m)) {
                    named.add(m);
                }
            }
            if (named.isEmpty() && rule.exactClass()) {
                problems.add(missing(rule, type));
            }
            for (MethodModel m : named) {
                if (m.lockable()) {
                    List<LockRule> matching = byMethod.get(m);
                    if (matching == null) {
                        matching = new ArrayList<>();
                        byMethod.put(m, matching);
                    }
                    matching.add(rule);
                } else if (!rule.methodName().contains("*") && !rule.subtypes()) {
                    problems.add(
                            rule.where() + ": " + type.name() + "#" + m.signature()
                                    + " is abstract, native, synthetic or a bridge method — name the concrete method that does the work");
                }
            }
        }
        List<Planned> planned = new ArrayList<>();
        for (Map.Entry<MethodModel, List<LockRule>> e : byMethod.entrySet()) {
            planned.add(planOne(type, e.getKey(), e.getValue(), resolver));
        }
        return new Plan(planned, problems);
    }

    private static Planned planOne(ClassModel type, MethodModel m, List<LockRule> matching, TypeResolver resolver) {
        LockRule rule = matching.get(0);
        String where = type.name() + "#" + m.signature();
        if (matching.size() > 1) {
            StringJoiner wheres = new StringJoiner(" and ");
            StringJoiner specs = new StringJoiner(" and ");
            for (LockRule r : matching) {
                wheres.add(r.where());
                specs.add(r.spec());
            }
            return new Planned(
                    rule,
                    type.name(),
                    m,
                    null,
                    wheres + ": rules " + specs + " both match " + where
                            + " — make the patterns disjoint (one rule per method)");
        }
        try {
            return new Planned(rule, type.name(), m, KeyCheck.resolve(rule, type, m, resolver), null);
        } catch (IllegalArgumentException e) {
            String fix = e.getMessage().contains(" — ") ? "" : " — fix key=\"...\"";
            return new Planned(
                    rule, type.name(), m, null, rule.where() + ": " + e.getMessage() + " (method " + where + ")" + fix);
        }
    }

    private static String missing(LockRule rule, ClassModel type) {
        StringJoiner sameName = new StringJoiner(", ");
        for (MethodModel m : type.methods()) {
            if (m.isMethod() && m.name().equals(rule.methodName())) {
                sameName.add(m.signature());
            }
        }
        return rule.where() + ": " + type.name() + " has no method "
                + rule.spec().substring(rule.classPattern().length() + 1)
                + (sameName.length() == 0 ? "" : "; its methods named " + rule.methodName() + " are " + sameName)
                + " — fix the rule (it protects nothing)";
    }
}
