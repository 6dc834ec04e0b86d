package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.is;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Applies the rules of one class when it loads: finds the methods each rule names, checks the key
 * template against the real parameter names, registers a binding and weaves {@link LockAdvice}.
 * Problems found here (no such method, unknown parameter name) are printed once, naming the
 * config line; the method then stays un-instrumented.
 */
final class RuleTransformer implements AgentBuilder.Transformer {
    /** What advice can handle: plain, concrete, non-native, compiler-visible methods. */
    static final ElementMatcher<MethodDescription> LOCKABLE =
            isMethod().and(not(isAbstract())).and(not(isNative())).and(not(isSynthetic())).and(not(isBridge()));

    private final Map<String, List<LockRule>> rulesByClass;
    private final AgentRuntime runtime;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    RuleTransformer(List<LockRule> rules, AgentRuntime runtime) {
        this.rulesByClass = rules.stream().collect(Collectors.groupingBy(LockRule::className));
        this.runtime = runtime;
    }

    Set<String> classNames() {
        return rulesByClass.keySet();
    }

    @Override
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                            JavaModule module, ProtectionDomain domain) {
        DynamicType.Builder<?> b = builder;
        for (LockRule rule : rulesByClass.getOrDefault(type.getName(), List.of())) {
            for (MethodDescription.InDefinedShape m : methods(type, rule)) {
                b = weave(b, type, rule, m);
            }
        }
        return b;
    }

    private List<MethodDescription.InDefinedShape> methods(TypeDescription type, LockRule rule) {
        List<MethodDescription.InDefinedShape> named = new ArrayList<>();
        List<MethodDescription.InDefinedShape> matching = new ArrayList<>();
        for (MethodDescription.InDefinedShape m : type.getDeclaredMethods()) {
            if (m.isMethod() && m.getName().equals(rule.methodName())) {
                named.add(m);
                if (rule.parameterTypes().map(t -> sameTypes(t, m)).orElse(true)) {
                    matching.add(m);
                }
            }
        }
        if (matching.isEmpty()) {
            report(rule.where() + ": " + type.getName() + " has no method " + rule.spec().substring(rule.className().length() + 1)
                    + (named.isEmpty() ? "" : "; its methods named " + rule.methodName() + " are "
                    + named.stream().map(RuleTransformer::signature).collect(Collectors.joining(", ")))
                    + " — fix the rule (nothing of it is instrumented)");
        }
        List<MethodDescription.InDefinedShape> lockable = new ArrayList<>();
        for (MethodDescription.InDefinedShape m : matching) {
            if (LOCKABLE.matches(m)) {
                lockable.add(m);
            } else {
                report(rule.where() + ": " + type.getName() + "#" + signature(m)
                        + " is abstract, native, synthetic or a bridge method — name the concrete method that does the work");
            }
        }
        return lockable;
    }

    private DynamicType.Builder<?> weave(DynamicType.Builder<?> builder, TypeDescription type, LockRule rule,
                                         MethodDescription.InDefinedShape m) {
        List<String> names = m.getParameters().stream().map(ParameterDescription::getName).collect(Collectors.toList());
        KeyTemplate key;
        try {
            key = KeyTemplate.parse(rule.key(), names);
        } catch (IllegalArgumentException e) {
            report(rule.where() + ": " + e.getMessage() + " (method " + type.getName() + "#" + signature(m)
                    + ") — fix key=\"...\"; this method is NOT instrumented");
            return builder;
        }
        int id = runtime.register(rule, type.getName() + "#" + m.getInternalName() + m.getDescriptor(), key);
        return builder.visit(Advice.withCustomMapping().bind(BindingId.class, id).to(LockAdvice.class).on(is(m)));
    }

    private static boolean sameTypes(List<String> wanted, MethodDescription m) {
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
    }

    private static String normal(String typeName) {
        return typeName.replace('$', '.').replace(" ", "");
    }

    private static String signature(MethodDescription m) {
        return m.getName() + m.getParameters().asTypeList().asErasures().stream()
                .map(TypeDescription::getActualName).collect(Collectors.joining(", ", "(", ")"));
    }

    private void report(String message) {
        if (reported.add(message)) {
            System.err.println(AgentStartup.PREFIX + message);
        }
    }
}
