package dev.lockwarden.agent.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.OnBusy;

/**
 * Parses one rule line: {@code ClassPattern#methodPattern[(types)] key="..." [options]}. Class patterns are a
 * binary name with {@code *} wildcards (never in the first package name) and an optional {@code +} suffix for
 * subtypes; method patterns are a name with {@code *} wildcards; {@code (..)} means every overload.
 */
final class RuleLine {
    private static final String IDENT = "[A-Za-z_$][A-Za-z0-9_$]*";
    private static final String WILD = "[A-Za-z_$*][A-Za-z0-9_$*]*";
    private static final Pattern CLASS = Pattern.compile(IDENT + "(\\." + WILD + ")*");
    private static final Pattern METHOD = Pattern.compile(WILD);
    private static final Pattern TYPE = Pattern.compile(IDENT + "(\\." + IDENT + ")*(\\[\\])*");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
    private static final List<String> PRIMITIVES = List.of("boolean", "byte", "char", "short", "int", "long", "float", "double");
    private static final List<String> FORBIDDEN = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.lockwarden.");
    private static final String EXAMPLE = "com.acme.Billing#charge(java.lang.String) key=\"payment:{0}\" ttl=30s onBusy=FAIL";

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
            problem("'" + abbreviate(line) + "' is neither a setting (name = value) nor a rule (Class#method key=\"...\")",
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
        checkClass(className);
        checkMethod(methodName);
        String list = paren < 0 ? "" : rest.substring(paren).replace(" ", "");
        Optional<List<String>> types = paren < 0 || list.equals("(..)") ? Optional.empty() : types(rest.substring(paren));
        Map<String, String> options = RuleOptions.parse(line.substring(end), this::problem);
        String key = options.get("key");
        if (key == null) {
            problem("rule for " + spec + " has no key", "add key=\"...\", e.g. key=\"payment:{0}\" ({0} = first argument)");
        } else {
            checkTemplate(key, types);
        }
        RuleValues v = new RuleValues(where, problems, options);
        Optional<Duration> ttl = v.ttl();
        Optional<Duration> wait = v.waitUpTo();
        OnBusy onBusy = v.onBusy();
        boolean autoRefresh = v.autoRefresh();
        OnLost onLost = v.choice("onLost", OnLost.class, OnLost.LOG,
                "onLost=log (WARNING, the caller gets the method's result) or onLost=throw (LockLostException after the method returned)");
        OnStoreDown onStoreDown = v.choice("onStoreDown", OnStoreDown.class, OnStoreDown.FAIL,
                "onStoreDown=fail (LockStoreException, the body does not run) or onStoreDown=skip (with onBusy=SKIP only)");
        Optional<Duration> holdAtLeast = v.holdAtLeast(ttl);
        if (onStoreDown == OnStoreDown.SKIP && onBusy != OnBusy.SKIP) {
            problem("onStoreDown=skip needs onBusy=SKIP", "add onBusy=SKIP, or remove onStoreDown (a FAIL rule fails when Redis is down)");
        }
        if (problems.size() > problemsBefore) {
            return Optional.empty();
        }
        return Optional.of(new LockRule(where, className, subtypes, methodName, types, key, ttl, wait, onBusy, autoRefresh,
                onLost, onStoreDown, holdAtLeast));
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
        if (!CLASS.matcher(className).matches()) {
            problem("'" + className + "' is not a class name or pattern", "write the fully qualified class, e.g. com.acme.Billing"
                    + " (nested: com.acme.Outer$Inner; patterns: com.acme.jobs.*Job, subtypes: com.acme.PaymentHandler+;"
                    + " the first package name cannot be a wildcard)");
            return;
        }
        for (String f : FORBIDDEN) {
            if (className.startsWith(f)) {
                problem("class " + className + " cannot be locked (JDK and Lockwarden classes are never instrumented)",
                        "name a class of the application");
            }
        }
    }

    private void checkMethod(String methodName) {
        if (methodName.equals("<init>") || methodName.equals("<clinit>")) {
            problem("constructors and static initialisers cannot be locked", "lock a method the constructor calls instead");
        } else if (!METHOD.matcher(methodName).matches()) {
            problem("'" + methodName + "' is not a method name or pattern", "write Class#method, e.g. com.acme.Billing#charge or com.acme.Jobs#run*");
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
            } else if (!TYPE.matcher(type).matches()) {
                problem("'" + type + "' is not a parameter type", "write fully qualified types, e.g. java.lang.String, int, long[]");
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
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            String head = m.group(1).strip().split("\\.", -1)[0];
            if (!head.isEmpty() && !head.chars().allMatch(Character::isDigit) && !names.contains(head)) {
                names.add(head); // names are only checked when the class loads (they need javac -parameters)
            }
        }
        int size = types.map(List::size).orElse(Math.max(names.size(), 256));
        if (names.size() > size) {
            problem("key \"" + template + "\" names " + names.size() + " parameters but " + types.get().size()
                    + " are listed", "use indexes {0}..{" + (size - 1) + "} or parameter names of this method");
            return;
        }
        while (names.size() < size) {
            names.add("\u0000" + names.size());
        }
        try {
            KeyTemplate.parse(template, names);
        } catch (IllegalArgumentException e) {
            problem(e.getMessage(), "fix key=\"...\"; placeholders are {0}, {1}, ... or {parameterName}, optionally {0.property}");
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 60 ? line : line.substring(0, 57) + "...";
    }

    private void problem(String problem, String fix) {
        problems.add(where + ": " + problem + " — " + fix);
    }
}
