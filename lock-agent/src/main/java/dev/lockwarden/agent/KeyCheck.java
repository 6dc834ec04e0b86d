package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.config.KeyNames;
import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;

/**
 * Makes a rule's key template concrete for one method: replaces {@code {class}}/{@code {method}}, resolves
 * parameter names, and rejects a bare {@code {0}} whose parameter type keeps {@link Object#toString()} — such a
 * key differs on every call ({@code Payment@1b6d3586}) and so would exclude nothing.
 */
final class KeyCheck {
    private static final Pattern BARE = Pattern.compile("\\{\\s*([A-Za-z0-9_$]+)\\s*}");

    private KeyCheck() {
    }

    /** The parsed template, or throws {@link IllegalArgumentException} with the problem and the fix. */
    static KeyTemplate resolve(LockRule rule, TypeDescription type, MethodDescription m) {
        String template = KeyNames.substitute(rule.key(), type.getSimpleName(), m.getName());
        List<String> names = m.getParameters().stream().map(ParameterDescription::getName).collect(Collectors.toList());
        KeyTemplate key = KeyTemplate.parse(template, names);
        Matcher bare = BARE.matcher(template);
        while (bare.find()) {
            String head = bare.group(1);
            int index = head.chars().allMatch(Character::isDigit) ? Integer.parseInt(head) : names.indexOf(head);
            TypeDescription p = m.getParameters().get(index).getType().asErasure();
            String problem = identityToString(p);
            if (problem != null) {
                throw new IllegalArgumentException("lock name template \"" + template + "\": {" + head + "} is a "
                        + p.getActualName() + ", which " + problem + ", so every call would get a different lock name"
                        + " — use a property that identifies it, e.g. {" + head + ".id}");
            }
        }
        return key;
    }

    /** Null when the type's toString() identifies the value; otherwise why not. */
    private static String identityToString(TypeDescription t) {
        if (t.isPrimitive() || t.isInterface()) {
            return null; // interfaces: the implementation decides (String implements CharSequence)
        }
        if (t.isArray()) {
            return "is an array (arrays print as [I@1b6d3586)";
        }
        try {
            for (TypeDefinition c = t; c != null && !c.asErasure().represents(Object.class); c = c.getSuperClass()) {
                if (!c.getDeclaredMethods().filter(named("toString").and(takesArguments(0)).and(not(isStatic()))).isEmpty()) {
                    return null;
                }
            }
            return "does not override toString()";
        } catch (RuntimeException unresolvable) {
            return "could not be checked for a toString() override (" + unresolvable.getMessage() + ")";
        }
    }
}
