package dev.lockwarden.agent;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.agent.config.KeyNames;
import dev.lockwarden.agent.config.LockRule;
import dev.lockwarden.agent.config.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * Makes a rule's key template concrete for one method: replaces {@code {class}}/{@code {method}}, resolves
 * parameter names, and rejects a bare {@code {0}} whose parameter type keeps {@link Object#toString()} — such a
 * key differs on every call ({@code Payment@1b6d3586}) and so would exclude nothing.
 */
final class KeyCheck {
    private static final Set<String> PRIMITIVES =
            Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double");
    private static final int MAX_DEPTH = 100;

    private KeyCheck() {}

    /** The parsed template, or throws {@link IllegalArgumentException} with the problem and the fix. */
    static KeyTemplate resolve(LockRule rule, TypeDescription type, MethodDescription m, TypePool pool) {
        String template = KeyNames.substitute(rule.key(), type.getSimpleName(), m.getInternalName());
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (ParameterDescription p : m.getParameters()) {
            // as reflection: the MethodParameters name (javac -parameters), else argN
            names.add(p.getName());
            types.add(RuleMatchers.typeName(p.getType()));
        }
        KeyTemplate key = KeyTemplate.parse(template, names);
        for (String head : bare(template)) {
            int index = Names.digits(head) ? Integer.parseInt(head) : names.indexOf(head);
            String p = types.get(index);
            String problem = identityToString(p, pool);
            if (problem != null) {
                throw new IllegalArgumentException("lock name template \"" + template + "\": {" + head + "} is a "
                        + p + ", which " + problem + ", so every call would get a different lock name"
                        + " — use a property that identifies it, e.g. {" + head + ".id}");
            }
        }
        return key;
    }

    /**
     * The names in bare placeholders ({@code {0}}, {@code { name }}: no property path), left to right — what the regex
     * "\\{\\s*([A-Za-z0-9_$]+)\\s*}" finds, by hand (this runs in premain, where a first regex costs start-up time).
     */
    static List<String> bare(String template) {
        List<String> found = new ArrayList<>();
        int from = 0;
        int open;
        while ((open = template.indexOf('{', from)) >= 0) {
            int i = skipSpace(template, open + 1);
            int start = i;
            while (i < template.length() && word(template.charAt(i))) {
                i++;
            }
            int end = i;
            i = skipSpace(template, i);
            if (end > start && i < template.length() && template.charAt(i) == '}') {
                found.add(template.substring(start, end));
                from = i + 1;
            } else {
                from = open + 1;
            }
        }
        return found;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && " \t\n\u000B\f\r".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    private static boolean word(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '$';
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
                    if (!java.lang.reflect.Modifier.isStatic(
                            c.getDeclaredMethod("toString").getModifiers())) {
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
    private static String identityToString(String typeName, TypePool pool) {
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
                TypePool.Resolution r = pool.describe(c);
                if (!r.isResolved()) {
                    throw new IllegalStateException("no class file for " + c);
                }
                TypeDescription model = r.resolve();
                if (model.isInterface()) {
                    return null; // interfaces: the implementation decides (String implements CharSequence)
                }
                for (MethodDescription x : model.getDeclaredMethods()) {
                    if (x.isMethod()
                            && x.getInternalName().equals("toString")
                            && x.getParameters().isEmpty()
                            && !x.isStatic()) {
                        return null;
                    }
                }
                TypeDescription.Generic superClass = model.getSuperClass();
                c = superClass == null ? null : superClass.asErasure().getName();
            }
            return "does not override toString()";
        } catch (RuntimeException unresolvable) {
            return "could not be checked for a toString() override (" + unresolvable.getMessage() + ")";
        }
    }
}
