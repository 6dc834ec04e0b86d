package dev.lockwarden.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Decides, for one class, which of its declared methods each rule locks and with which key. Used by the running
 * agent, by the pre-main check and by the {@code check} command, so all three agree. A method that a rule names
 * but that cannot be locked safely (bad key, matched by two rules) is still planned — with its problem, so that
 * calls to it fail instead of running unlocked.
 */
final class MethodPlanner {
    private final List<LockRule> rules;
    private final List<ElementMatcher<TypeDescription>> typeMatchers = new ArrayList<>();

    /** One method under one rule: {@code key} is set, or {@code problem} says why calls must fail. */
    record Planned(LockRule rule, MethodDescription.InDefinedShape method, KeyTemplate key, String problem) {
        String methodId() {
            return method.getDeclaringType().asErasure().getName() + "#" + method.getName();
        }

        String signature() {
            return method.getDeclaringType().asErasure().getName() + "#" + MethodPlanner.signature(method);
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
            typeMatchers.add(RuleMatchers.types(r));
        }
    }

    List<LockRule> rules() {
        return rules;
    }

    /** Whether any rule's class pattern matches (cheap pre-check). */
    boolean named(TypeDescription type) {
        for (ElementMatcher<TypeDescription> m : typeMatchers) {
            if (m.matches(type)) {
                return true;
            }
        }
        return false;
    }

    Plan plan(TypeDescription type) {
        Map<MethodDescription.InDefinedShape, List<LockRule>> byMethod = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            LockRule rule = rules.get(i);
            if (!typeMatchers.get(i).matches(type)) {
                continue;
            }
            List<MethodDescription.InDefinedShape> named = type.getDeclaredMethods().filter(RuleMatchers.named(rule));
            if (named.isEmpty() && rule.exactClass()) {
                problems.add(missing(rule, type));
            }
            for (MethodDescription.InDefinedShape m : named) {
                if (RuleMatchers.LOCKABLE.matches(m)) {
                    byMethod.computeIfAbsent(m, k -> new ArrayList<>()).add(rule);
                } else if (!rule.methodName().contains("*") && !rule.subtypes()) {
                    problems.add(rule.where() + ": " + type.getName() + "#" + signature(m)
                            + " is abstract, native, synthetic or a bridge method — name the concrete method that does the work");
                }
            }
        }
        List<Planned> planned = new ArrayList<>();
        byMethod.forEach((m, matching) -> planned.add(planOne(type, m, matching)));
        return new Plan(planned, problems);
    }

    private static Planned planOne(TypeDescription type, MethodDescription.InDefinedShape m, List<LockRule> matching) {
        LockRule rule = matching.get(0);
        String where = type.getName() + "#" + signature(m);
        if (matching.size() > 1) {
            return new Planned(rule, m, null, matching.stream().map(LockRule::where).collect(Collectors.joining(" and "))
                    + ": rules " + matching.stream().map(LockRule::spec).collect(Collectors.joining(" and "))
                    + " both match " + where + " — make the patterns disjoint (one rule per method)");
        }
        try {
            return new Planned(rule, m, KeyCheck.resolve(rule, type, m), null);
        } catch (IllegalArgumentException e) {
            String fix = e.getMessage().contains(" — ") ? "" : " — fix key=\"...\"";
            return new Planned(rule, m, null, rule.where() + ": " + e.getMessage() + " (method " + where + ")" + fix);
        }
    }

    private static String missing(LockRule rule, TypeDescription type) {
        List<MethodDescription.InDefinedShape> sameName = type.getDeclaredMethods()
                .filter(net.bytebuddy.matcher.ElementMatchers.named(rule.methodName()));
        return rule.where() + ": " + type.getName() + " has no method "
                + rule.spec().substring(rule.classPattern().length() + 1)
                + (sameName.isEmpty() ? "" : "; its methods named " + rule.methodName() + " are "
                + sameName.stream().map(MethodPlanner::signature).collect(Collectors.joining(", ")))
                + " — fix the rule (it protects nothing)";
    }

    static String signature(MethodDescription m) {
        return m.getName() + m.getParameters().asTypeList().asErasures().stream()
                .map(TypeDescription::getActualName).collect(Collectors.joining(", ", "(", ")"));
    }
}
