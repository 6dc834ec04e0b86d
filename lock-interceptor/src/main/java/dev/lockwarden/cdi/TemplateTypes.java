package dev.lockwarden.cdi;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a (syntactically valid) lock name template against the declared parameter types: every
 * property path must exist, and every rendered value must have its own {@code toString()} — with
 * {@code Object.toString()} each call would render its own name, so calls would never exclude
 * each other.
 */
final class TemplateTypes {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

    private TemplateTypes() {}

    static void check(String template, Method method, List<String> names, String where, Consumer<String> problems) {
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            String expr = m.group(1).trim();
            String[] segments = expr.split("\\.");
            int index = segments[0].chars().allMatch(Character::isDigit)
                    ? Integer.parseInt(segments[0])
                    : names.indexOf(segments[0]);
            Class<?> type = method.getParameterTypes()[index];
            for (int i = 1; i < segments.length && type != null; i++) {
                Class<?> next = propertyType(type, segments[i]);
                if (next == null) {
                    problems.accept("@Locked(\"" + template + "\") on " + where + ": {" + expr + "}: " + type.getName()
                            + " has no accessor " + segments[i] + "(), " + accessor("get", segments[i]) + "(), "
                            + accessor("is", segments[i]) + "() or public field " + segments[i]
                            + ". Fix the property name (check its spelling) or add the accessor");
                }
                type = next;
            }
            if (type != null && !hasOwnToString(type)) {
                problems.accept("@Locked(\"" + template + "\") on " + where + ": {" + expr + "} is a " + type.getName()
                        + ", which does not override toString(): every call would get a lock name of its own and no two"
                        + " calls would exclude each other. Name a property instead (e.g. {" + expr
                        + ".id}) or override"
                        + " toString() in " + type.getSimpleName());
            }
        }
    }

    /** The declared type of {@code type.name}, resolved like {@code KeyTemplate} does at run time; null if none. */
    private static Class<?> propertyType(Class<?> type, String name) {
        for (String candidate : new String[] {name, accessor("get", name), accessor("is", name)}) {
            try {
                Method m = type.getMethod(candidate);
                if (m.getReturnType() != void.class && !Modifier.isStatic(m.getModifiers())) {
                    return m.getReturnType();
                }
            } catch (NoSuchMethodException ignored) {
                // next form
            }
        }
        try {
            Field f = type.getField(name);
            return Modifier.isStatic(f.getModifiers()) ? null : f.getType();
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /**
     * Primitives, strings, numbers, enums and records do; an interface is accepted since only its
     * implementation decides; an array or a class inheriting {@code Object.toString()} does not.
     */
    private static boolean hasOwnToString(Class<?> type) {
        if (type.isPrimitive() || type.isInterface()) {
            return true;
        }
        if (type.isArray()) {
            return false;
        }
        try {
            return type.getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static String accessor(String prefix, String name) {
        return prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
