package dev.lockwarden;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A lock-name template such as {@code "payment:{0}"}, {@code "payment:{order.id}"} or
 * {@code "{paramName}"}, shared by the CDI interceptor and the agent. Placeholders are a parameter
 * index or name, optionally followed by a property path (record accessor, getter or public field).
 * Parse once at start-up ({@link #parse}); rendering is cheap.
 * <p>
 * Over 200 lines because parsing, validating and rendering one template (indexes, names, property paths) belong together; the messages naming the fix take half of it.
 */
public final class KeyTemplate {
    /**
     * Property accessors per class and property name. Keyed by the {@link Class} itself through
     * {@link ClassValue}, not by its name: two class loaders (redeployed web apps, plugins) may hold
     * different classes of one name, and the cache must neither mix them up nor keep an undeployed
     * application's class loader alive.
     */
    private static final ClassValue<Map<String, Function<Object, Object>>> ACCESSORS = new ClassValue<>() {
        @Override
        protected Map<String, Function<Object, Object>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private final String template;
    private final List<Object> parts; // String literal or Placeholder

    private record Placeholder(String text, int index, String[] path) {}

    private KeyTemplate(String template, List<Object> parts) {
        this.template = template;
        this.parts = parts;
    }

    /**
     * Parses and validates a template against the method's parameter names.
     *
     * @param template       e.g. {@code payment:{0}} or {@code payment:{order.id}}
     * @param parameterNames the method's parameter names (placeholders may use them or indexes)
     * @return the parsed template
     * @throws IllegalArgumentException naming the template, the bad placeholder and the fix
     */
    public static KeyTemplate parse(String template, List<String> parameterNames) {
        if (template == null || template.isBlank()) {
            throw new IllegalArgumentException(
                    "lock name template is blank: write e.g. \"payment:{0}\" or \"payment:{paymentId}\"");
        }
        List<Object> parts = new ArrayList<>();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            int close = template.indexOf('}', i);
            if (close >= 0 && (open < 0 || close < open)) {
                throw bad(template, "'}' at position " + close + " has no matching '{'");
            }
            if (open < 0) {
                parts.add(template.substring(i));
                break;
            }
            if (open > i) {
                parts.add(template.substring(i, open));
            }
            if (close < 0) {
                throw bad(template, "'{' at position " + open + " is never closed");
            }
            String expr = template.substring(open + 1, close).trim();
            if (expr.contains("{")) {
                throw bad(template, "placeholders cannot be nested");
            }
            parts.add(placeholder(template, expr, parameterNames));
            i = close + 1;
        }
        return new KeyTemplate(template, List.copyOf(parts));
    }

    // loops rather than streams and method references: the agent parses templates in premain, where the first
    // lambda of a class costs start-up time
    private static boolean allIdentifierParts(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isJavaIdentifierPart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Non-empty ASCII digits only, as the agent's rule check reads an index: {@code {١}} is a name, not an index. */
    private static boolean allDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static Placeholder placeholder(String template, String expr, List<String> names) {
        if (expr.isEmpty()) {
            throw bad(
                    template,
                    "'{}' is empty: name a parameter, e.g. {0} or {" + (names.isEmpty() ? "id" : names.get(0)) + "}");
        }
        String[] segments = expr.split("\\.", -1);
        for (String s : segments) {
            if (s.isEmpty() || !allIdentifierParts(s)) {
                throw bad(
                        template, "'{" + expr + "}' is not a parameter index or name with an optional .property path");
            }
        }
        String head = segments[0];
        int index;
        if (allDigits(head)) {
            index = Integer.parseInt(head);
            if (index >= names.size()) {
                throw bad(
                        template,
                        "'{" + expr + "}' refers to parameter " + index + " but the method has " + names.size()
                                + " parameter(s)" + (names.isEmpty() ? "" : " (0.." + (names.size() - 1) + ")"));
            }
        } else {
            index = names.indexOf(head);
            if (index < 0) {
                throw bad(
                        template,
                        "'{" + expr + "}' names no parameter; parameters are " + names
                                + " (names need javac -parameters; otherwise use indexes like {0})");
            }
        }
        String[] path = new String[segments.length - 1];
        System.arraycopy(segments, 1, path, 0, path.length);
        return new Placeholder(expr, index, path);
    }

    /**
     * Renders the lock name for one invocation.
     *
     * @param args the invocation's arguments
     * @return the lock name
     * @throws IllegalArgumentException a placeholder's value is null
     */
    public String render(Object[] args) {
        StringBuilder sb = new StringBuilder(template.length() + 16);
        for (Object part : parts) {
            if (part instanceof String s) {
                sb.append(s);
            } else {
                Placeholder p = (Placeholder) part;
                Object value = args[p.index()];
                for (String prop : p.path()) {
                    if (value == null) {
                        break;
                    }
                    value = property(value, prop);
                }
                if (value == null) {
                    throw new IllegalArgumentException("lock name template \"" + template + "\": {" + p.text()
                            + "} is null for this call, so no lock name can be made");
                }
                sb.append(value);
            }
        }
        return sb.toString();
    }

    /** {@return true when the template has no placeholders} */
    public boolean isConstant() {
        for (Object p : parts) {
            if (!(p instanceof String)) {
                return false;
            }
        }
        return true;
    }

    /** {@return the template as written} */
    public String template() {
        return template;
    }

    @Override
    public String toString() {
        return template;
    }

    private static Object property(Object target, String name) {
        Class<?> type = target.getClass();
        return ACCESSORS
                .get(type)
                .computeIfAbsent(name, k -> accessor(type, name))
                .apply(target);
    }

    private static Function<Object, Object> accessor(Class<?> type, String name) {
        String cap = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : new String[] {name, "get" + cap, "is" + cap}) {
            try {
                Method m = type.getMethod(candidate);
                if (m.getReturnType() != void.class && !Modifier.isStatic(m.getModifiers())) {
                    m.setAccessible(true);
                    return target -> invoke(m, target);
                }
            } catch (NoSuchMethodException | RuntimeException ignored) {
                // try the next form
            }
        }
        try {
            Field f = type.getField(name);
            if (!Modifier.isStatic(f.getModifiers())) {
                return target -> read(f, target);
            }
        } catch (NoSuchFieldException ignored) {
            // fall through to the error
        }
        throw new IllegalArgumentException("lock name template: " + type.getName() + " has no accessor " + name
                + "(), get" + cap + "(), is" + cap + "() or public field " + name);
    }

    private static Object invoke(Method m, Object target) {
        try {
            return m.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalArgumentException("lock name template: cannot call " + m + ": " + e, e);
        }
    }

    private static Object read(Field f, Object target) {
        try {
            return f.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("lock name template: cannot read " + f + ": " + e, e);
        }
    }

    private static IllegalArgumentException bad(String template, String problem) {
        return new IllegalArgumentException("lock name template \"" + template + "\": " + problem);
    }
}
