package dev.lockwarden.agent.config;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.OnBusy;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Parses one rule line: {@code ClassPattern#methodPattern[(types)] key="..." [options]}. Class patterns are a
 * binary name with {@code *} wildcards (never in the first package name) and an optional {@code +} suffix for
 * subtypes; method patterns are a name with {@code *} wildcards; {@code (..)} means every overload.
 *
 * <p>Runs in {@code premain}: names are checked by hand, not by regular expressions, and without lambdas or
 * streams, whose first use spins {@code java.lang.invoke} classes the application's start-up would wait for.
 */
final class RuleLine {
    private static final List<String> PRIMITIVES =
            List.of("boolean", "byte", "char", "short", "int", "long", "float", "double");
    private static final String EXAMPLE =
            "com.acme.Billing#charge(java.lang.String) key=\"payment:{0}\" ttl=30s onBusy=FAIL";

    private final String where;
    private final List<String> problems;
    private final int problemsBefore;

    private RuleLine(String where, List<String> problems) {
        this.where = where;
        this.problems = problems;
        this.problemsBefore = problems.size();
    }

    /** Parses {@code line}; adds each problem to {@code problems}; empty when the line has any problem. */
    static Optional<LockRule> parse(String where, String line, List<String> problems) {
        return new RuleLine(where, problems).rule(line);
    }

    private Optional<LockRule> rule(String line) {
        int end = specEnd(line);
        String spec = line.substring(0, end);
        int hash = spec.indexOf('#');
        if (hash < 0) {
            problem(
                    "'" + abbreviate(line)
                            + "' is neither a setting (name = value) nor a rule (Class#method key=\"...\")",
                    "write e.g. redis = redis://127.0.0.1:6379 or " + EXAMPLE);
            return Optional.empty();
        }
        String className = spec.substring(0, hash).strip();
        boolean subtypes = className.endsWith("+");
        if (subtypes) {
            className = className.substring(0, className.length() - 1);
        }
        String rest = spec.substring(hash + 1).strip();
        int paren = rest.indexOf('(');
        String methodName = (paren < 0 ? rest : rest.substring(0, paren)).strip();
        ConfigLimits.pattern(where, className);
        ConfigLimits.pattern(where, methodName);
        checkClass(className);
        checkMethod(methodName);
        String list = paren < 0 ? "" : rest.substring(paren).replace(" ", "");
        Optional<List<String>> types =
                paren < 0 || list.equals("(..)") ? Optional.<List<String>>empty() : types(rest.substring(paren));
        Map<String, String> options = RuleOptions.parse(line.substring(end), new Sink());
        String key = options.get("key");
        if (key == null) {
            problem(
                    "rule for " + spec + " has no key",
                    "add key=\"...\", e.g. key=\"payment:{0}\" ({0} = first argument)");
        } else {
            checkTemplate(key, types);
        }
        RuleValues v = new RuleValues(where, problems, options);
        Optional<Duration> ttl = v.ttl();
        Optional<Duration> wait = v.waitUpTo();
        OnBusy onBusy = v.onBusy();
        boolean autoRefresh = v.autoRefresh();
        OnLost onLost = v.choice(
                "onLost",
                OnLost.class,
                OnLost.LOG,
                "onLost=log (WARNING, the caller gets the method's result), onLost=throw (LockLostException after the method"
                        + " returned) or onLost=interrupt (the method's thread is interrupted when the loss is known)");
        OnStoreDown onStoreDown = v.choice(
                "onStoreDown",
                OnStoreDown.class,
                OnStoreDown.FAIL,
                "onStoreDown=fail (LockStoreException, the body does not run) or onStoreDown=skip (with onBusy=SKIP only)");
        Optional<Duration> holdAtLeast = v.holdAtLeast(ttl);
        Optional<ReplicaAckSpec> replicaAcks = v.replicaAcks(ttl);
        if (onLost == OnLost.INTERRUPT && !autoRefresh) {
            problem(
                    "onLost=interrupt needs autoRefresh (the refresh is what notices the loss)",
                    "remove autoRefresh=false, or use onLost=throw");
        }
        if (onStoreDown == OnStoreDown.SKIP && onBusy != OnBusy.SKIP) {
            problem(
                    "onStoreDown=skip needs onBusy=SKIP",
                    "add onBusy=SKIP, or remove onStoreDown (a FAIL rule fails when Redis is down)");
        }
        if (problems.size() > problemsBefore) {
            return Optional.empty();
        }
        return Optional.of(new LockRule(
                where,
                className,
                subtypes,
                methodName,
                types,
                key,
                ttl,
                wait,
                onBusy,
                autoRefresh,
                onLost,
                onStoreDown,
                holdAtLeast,
                replicaAcks));
    }

    private static int specEnd(String line) {
        int depth = 0;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth <= 0 && Character.isWhitespace(c)) {
                break;
            }
            i++;
        }
        if (depth > 0) { // unclosed parameter list: the spec is the first word, the rest are options
            i = 0;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    private void checkClass(String className) {
        if (!dotted(className, true)) {
            problem(
                    "'" + className + "' is not a class name or pattern",
                    "write the fully qualified class, e.g. com.acme.Billing"
                            + " (nested: com.acme.Outer$Inner; patterns: com.acme.jobs.*Job, subtypes: com.acme.PaymentHandler+;"
                            + " the first package name cannot be a wildcard)");
            return;
        }
        String denied = Names.protectedPackageMatched(className);
        if (denied != null) {
            problem(
                    "class "
                            + (className.contains("*")
                                    ? "pattern " + className + " can match classes of " + denied + "*, which"
                                    : className + "")
                            + " cannot be locked (JDK and Lockwarden classes are never instrumented)",
                    "name a class of the application"
                            + (className.contains("*")
                                    ? " and write the package levels the" + " pattern must stay in, e.g. com.acme.*.Job"
                                    : ""));
        }
    }

    private void checkMethod(String methodName) {
        if (methodName.equals("<init>") || methodName.equals("<clinit>")) {
            problem(
                    "constructors and static initialisers cannot be locked",
                    "lock a method the constructor calls instead");
        } else if (!name(methodName, true)) {
            problem(
                    "'" + methodName + "' is not a method name or pattern",
                    "write Class#method, e.g. com.acme.Billing#charge or com.acme.Jobs#run*");
        }
    }

    private Optional<List<String>> types(String list) {
        if (!list.endsWith(")")) {
            problem("parameter list '" + list + "' is not closed", "write e.g. charge(java.lang.String, long)");
            return Optional.of(List.of());
        }
        String inner = list.substring(1, list.length() - 1).strip();
        List<String> types = new ArrayList<>();
        if (inner.isEmpty()) {
            return Optional.of(types);
        }
        for (String t : inner.split(",", -1)) {
            String type = t.strip();
            if (type.endsWith("...")) {
                problem("varargs parameter '" + type + "'", "write it as an array: " + type.replace("...", "[]"));
            } else if (!type(type)) {
                problem(
                        "'" + type + "' is not a parameter type",
                        "write fully qualified types, e.g. java.lang.String, int, long[]");
            } else if (!type.contains(".") && !PRIMITIVES.contains(type.replace("[]", ""))) {
                problem("parameter type '" + type + "' is not fully qualified", "write e.g. java.lang." + type);
            }
            types.add(type);
        }
        return Optional.of(types);
    }

    private void checkTemplate(String raw, Optional<List<String>> types) {
        String template = KeyNames.substitute(raw, "C", "m");
        List<String> names = new ArrayList<>();
        for (String placeholder : placeholders(template)) {
            String head = placeholder.strip().split("\\.", -1)[0];
            if (!head.isEmpty() && !Names.digits(head) && !names.contains(head)) {
                names.add(head); // names are only checked when the class loads (they need javac -parameters)
            }
        }
        int size = types.isPresent() ? types.get().size() : Math.max(names.size(), 256);
        if (names.size() > size) {
            problem(
                    "key \"" + template + "\" names " + names.size() + " parameters but "
                            + types.get().size() + " are listed",
                    "use indexes {0}..{" + (size - 1) + "} or parameter names of this method");
            return;
        }
        while (names.size() < size) {
            names.add("\u0000" + names.size());
        }
        try {
            KeyTemplate.parse(template, names);
        } catch (IllegalArgumentException e) {
            problem(
                    e.getMessage(),
                    "fix key=\"...\"; placeholders are {0}, {1}, ... or {parameterName}, optionally {0.property}");
        }
    }

    /** {@code IDENT(.WILD)*} (class patterns, {@code wild}) or {@code IDENT(.IDENT)*}: never a wildcard first. */
    static boolean dotted(String s, boolean wild) {
        String[] parts = s.split("\\.", -1);
        for (int i = 0; i < parts.length; i++) {
            if (!name(parts[i], wild && i > 0)) {
                return false;
            }
        }
        return true;
    }

    /** A Java-ish ASCII name {@code [A-Za-z_$][A-Za-z0-9_$]*}, with {@code *} anywhere when {@code wild}. */
    static boolean name(String s, boolean wild) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z'
                    || c >= 'a' && c <= 'z'
                    || c == '_'
                    || c == '$'
                    || wild && c == '*'
                    || i > 0 && c >= '0' && c <= '9';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A parameter type: {@code IDENT(.IDENT)*([])*}. */
    static boolean type(String s) {
        String t = s;
        while (t.endsWith("[]")) {
            t = t.substring(0, t.length() - 2);
        }
        return dotted(t, false);
    }

    /** The insides of every pair of braces holding no brace, left to right (as the regex "\\{([^{}]*)}" finds them). */
    static List<String> placeholders(String template) {
        List<String> found = new ArrayList<>();
        int from = 0;
        int open;
        while ((open = template.indexOf('{', from)) >= 0) {
            int i = open + 1;
            while (i < template.length() && template.charAt(i) != '{' && template.charAt(i) != '}') {
                i++;
            }
            if (i < template.length() && template.charAt(i) == '}') {
                found.add(template.substring(open + 1, i));
                from = i + 1;
            } else {
                from = open + 1;
            }
        }
        return found;
    }

    private static String abbreviate(String line) {
        return line.length() <= 60 ? line : line.substring(0, 57) + "...";
    }

    private void problem(String problem, String fix) {
        problems.add(where + ": " + problem + " — " + fix);
    }

    /** Problems found by {@link RuleOptions} (a class, not {@code this::problem}: no lambda in premain). */
    private final class Sink implements BiConsumer<String, String> {
        @Override
        public void accept(String problem, String fix) {
            problem(problem, fix);
        }
    }
}
