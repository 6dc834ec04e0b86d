package dev.lockwarden.checks;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lockwarden API a Java code block calls, resolved by reflection: static calls on a public type
 * ({@code LockOptions.ttl(…)}), calls on a variable declared with one ({@code LockHandle lock = …;
 * lock.fencingToken()}), the builder chain after {@code LockManager.builder()}, and every call chained
 * after those, following each method's return type. Also {@code OnBusy} constants and the attributes
 * given to {@code @Locked} (read from its source: lock-interceptor is not on this module's class path).
 */
final class ApiCheck {
    private static final List<String> PACKAGES = List.of(
            "dev.lockwarden",
            "dev.lockwarden.fencing",
            "dev.lockwarden.inspect",
            "dev.lockwarden.testing",
            "dev.lockwarden.config",
            "dev.lockwarden.metrics");
    private static final Pattern DECLARATION = Pattern.compile("\\b([A-Z]\\w*)(?:<[^>]*>)?\\s+(\\w+)\\s*(?:=|;|\\))");
    private static final Pattern STATIC_CALL = Pattern.compile("\\b([A-Z]\\w*)\\.(\\w+)\\s*\\(");
    private static final Pattern LOCKED = Pattern.compile("@Locked\\s*\\(([^)]*)\\)");
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)\\s*=");
    private static final Pattern ON_BUSY = Pattern.compile("\\bOnBusy\\.(\\w+)");

    private final Repo repo;
    private final Map<String, Optional<Class<?>>> types = new HashMap<>();

    ApiCheck(Repo repo) {
        this.repo = repo;
    }

    List<String> check(String code) {
        String text = code.replaceAll("(?m)(^|\\s)//[^\n]*", "$1");
        List<String> problems = new ArrayList<>();
        Matcher s = STATIC_CALL.matcher(text);
        while (s.find()) {
            type(s.group(1)).ifPresent(c -> chain(text, s.start(2), c, problems));
        }
        Matcher d = DECLARATION.matcher(text);
        while (d.find()) {
            Optional<Class<?>> c = type(d.group(1));
            if (c.isPresent()) {
                Matcher use = Pattern.compile("\\b" + Pattern.quote(d.group(2)) + "\\.(?=\\w+\\s*\\()")
                        .matcher(text);
                while (use.find()) {
                    chain(text, use.end(), c.get(), problems);
                }
            }
        }
        Matcher b = ON_BUSY.matcher(text);
        while (b.find()) {
            String constant = b.group(1);
            type("OnBusy")
                    .filter(c -> Arrays.stream(c.getEnumConstants())
                            .noneMatch(e -> e.toString().equals(constant)))
                    .ifPresent(c -> problems.add("OnBusy has no constant " + constant));
        }
        Matcher l = LOCKED.matcher(text);
        String locked =
                repo.read(repo.root.resolve(Path.of("lock-interceptor/src/main/java/dev/lockwarden/cdi/Locked.java")));
        while (l.find()) {
            Matcher a = ATTRIBUTE.matcher(l.group(1).replaceAll("\"[^\"]*\"", "\"\""));
            while (a.find()) {
                if (!locked.contains(" " + a.group(1) + "()")) {
                    problems.add("@Locked has no attribute " + a.group(1));
                }
            }
        }
        return problems;
    }

    /** Checks the call starting at {@code at} (a method name) on {@code type} and every call chained after it. */
    private void chain(String text, int at, Class<?> type, List<String> problems) {
        int i = at;
        Class<?> current = type;
        while (current != null) {
            int end = i;
            while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
                end++;
            }
            String name = text.substring(i, end);
            int open = skipSpace(text, end);
            if (name.isEmpty() || open >= text.length() || text.charAt(open) != '(') {
                return;
            }
            int close = closing(text, open);
            boolean noArguments = text.substring(open + 1, close).isBlank();
            Optional<Method> m = method(current, name, noArguments);
            if (m.isEmpty()) {
                problems.add(current.getSimpleName() + " has no method " + name + "(…)");
                return;
            }
            int next = skipSpace(text, close + 1);
            if (next >= text.length() || text.charAt(next) != '.') {
                return;
            }
            i = skipSpace(text, next + 1);
            current = m.get().getReturnType().getName().startsWith("dev.lockwarden")
                    ? m.get().getReturnType()
                    : null;
        }
    }

    /** A public method of that name, preferring one taking arguments as the call does and returning one of ours. */
    private static Optional<Method> method(Class<?> type, String name, boolean noArguments) {
        return Arrays.stream(type.getMethods())
                .filter(m -> m.getName().equals(name) && Modifier.isPublic(m.getModifiers()))
                .min(java.util.Comparator.comparingInt(
                                (Method m) -> (m.getParameterCount() == 0) == noArguments ? 0 : 1)
                        .thenComparingInt(m -> m.getReturnType().getName().startsWith("dev.lockwarden") ? 0 : 1));
    }

    private Optional<Class<?>> type(String simpleName) {
        return types.computeIfAbsent(simpleName, n -> {
            if (repo.simpleClassCount(n) != 1) {
                return Optional.empty(); // not ours, or two classes of that name: the block does not say which
            }
            for (String p : PACKAGES) {
                try {
                    return Optional.of(
                            Class.forName(p + "." + n, false, getClass().getClassLoader()));
                } catch (ClassNotFoundException | LinkageError e) {
                    // not in this package
                }
            }
            return Optional.empty();
        });
    }

    private static int skipSpace(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int closing(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return text.length() - 1;
    }
}
