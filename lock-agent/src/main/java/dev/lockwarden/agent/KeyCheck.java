package dev.lockwarden.agent;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.ClassModel.MethodModel;
import dev.lockwarden.agent.config.KeyNames;
import dev.lockwarden.agent.config.LockRule;

/**
 * Makes a rule's key template concrete for one method: replaces {@code {class}}/{@code {method}}, resolves
 * parameter names, and rejects a bare {@code {0}} whose parameter type keeps {@link Object#toString()} — such a
 * key differs on every call ({@code Payment@1b6d3586}) and so would exclude nothing.
 */
final class KeyCheck {
    private static final Pattern BARE = Pattern.compile("\\{\\s*([A-Za-z0-9_$]+)\\s*}");
    private static final Set<String> PRIMITIVES = Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double");
    private static final int MAX_DEPTH = 100;

    private KeyCheck() {
    }

    /** The parsed template, or throws {@link IllegalArgumentException} with the problem and the fix. */
    static KeyTemplate resolve(LockRule rule, ClassModel type, MethodModel m, TypeResolver resolver) {
        String template = KeyNames.substitute(rule.key(), type.simpleName(), m.name());
        List<String> names = m.parameterNames();
        KeyTemplate key = KeyTemplate.parse(template, names);
        Matcher bare = BARE.matcher(template);
        while (bare.find()) {
            String head = bare.group(1);
            int index = head.chars().allMatch(Character::isDigit) ? Integer.parseInt(head) : names.indexOf(head);
            String p = m.parameterTypes().get(index);
            String problem = identityToString(p, resolver);
            if (problem != null) {
                throw new IllegalArgumentException("lock name template \"" + template + "\": {" + head + "} is a "
                        + p + ", which " + problem + ", so every call would get a different lock name"
                        + " — use a property that identifies it, e.g. {" + head + ".id}");
            }
        }
        return key;
    }

    /**
     * For a JDK type ({@code java.*}, defined only by the boot and platform loaders, which run no application code):
     * asks the class itself — reading its class file from the run-time image cost tens of milliseconds on the
     * start-up path. Empty when toString() is overridden, the reason when not, null when the class is not found.
     */
    private static String jdkToString(String typeName) {
        try {
            Class<?> t = Class.forName(typeName, false, ClassLoader.getPlatformClassLoader());
            if (t.isInterface()) {
                return "";
            }
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                try {
                    if (!java.lang.reflect.Modifier.isStatic(c.getDeclaredMethod("toString").getModifiers())) {
                        return "";
                    }
                } catch (NoSuchMethodException notHere) {
                    // look in the superclass
                }
            }
            return "does not override toString()";
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return null;
        }
    }

    /** Null when the type's toString() identifies the value; otherwise why not. */
    private static String identityToString(String typeName, TypeResolver resolver) {
        if (PRIMITIVES.contains(typeName)) {
            return null;
        }
        if (typeName.endsWith("[]")) {
            return "is an array (arrays print as [I@1b6d3586)";
        }
        if (typeName.startsWith("java.")) {
            String jdk = jdkToString(typeName);
            if (jdk != null) {
                return jdk.isEmpty() ? null : jdk;
            }
        }
        try {
            String c = typeName;
            for (int depth = 0; c != null && !c.equals("java.lang.Object") && depth < MAX_DEPTH; depth++) {
                ClassModel model = resolver.resolve(c);
                if (model == null) {
                    throw new IllegalStateException("no class file for " + c);
                }
                if (model.isInterface()) {
                    return null; // interfaces: the implementation decides (String implements CharSequence)
                }
                for (MethodModel x : model.methods()) {
                    if (x.name().equals("toString") && x.parameterTypes().isEmpty() && !x.isStatic()) {
                        return null;
                    }
                }
                c = model.superName();
            }
            return "does not override toString()";
        } catch (RuntimeException unresolvable) {
            return "could not be checked for a toString() override (" + unresolvable.getMessage() + ")";
        }
    }
}
