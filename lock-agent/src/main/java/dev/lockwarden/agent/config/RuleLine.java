package dev.lockwarden.agent.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;
import dev.lockwarden.config.Durations;

/**
 * Parses one rule line: {@code ClassPattern#methodPattern[(types)] key="..." [options]}. Class patterns are a
 * binary name with {@code *} wildcards (never in the first package name) and an optional {@code +} suffix for
 * subtypes; method patterns are a name with {@code *} wildcards; {@code (..)} means every overload.
 */
final class RuleLine {
    static final List<String> OPTIONS = List.of("key", "ttl", "wait", "onBusy", "autoRefresh", "onLost", "onStoreDown", "holdAtLeast");
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
        Map<String, String> options = options(line.substring(end));
        String key = options.get("key");
        if (key == null) {
            problem("rule for " + spec + " has no key", "add key=\"...\", e.g. key=\"payment:{0}\" ({0} = first argument)");
        } else {
            checkTemplate(key, types);
        }
        Optional<Duration> ttl = option(options, "ttl").map(v -> duration("ttl", v));
        Optional<Duration> wait = option(options, "wait").map(v -> duration("wait", v));
        ttl.ifPresent(this::checkTtl);
        wait.ifPresent(this::checkWait);
        OnBusy onBusy = option(options, "onBusy").map(this::onBusy).orElse(OnBusy.FAIL);
        boolean autoRefresh = option(options, "autoRefresh").map(this::bool).orElse(Boolean.TRUE);
        OnLost onLost = option(options, "onLost").map(v -> choice("onLost", v, OnLost.class,
                "onLost=log (WARNING, the caller gets the method's result) or onLost=throw (LockLostException after the method returned)"))
                .orElse(OnLost.LOG);
        OnStoreDown onStoreDown = option(options, "onStoreDown").map(v -> choice("onStoreDown", v, OnStoreDown.class,
                "onStoreDown=fail (LockStoreException, the body does not run) or onStoreDown=skip (with onBusy=SKIP only)"))
                .orElse(OnStoreDown.FAIL);
        Optional<Duration> holdAtLeast = option(options, "holdAtLeast").map(v -> duration("holdAtLeast", v));
        holdAtLeast.ifPresent(h -> checkHoldAtLeast(h, ttl));
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

    private Map<String, String> options(String text) {
        Map<String, String> options = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (Character.isWhitespace(text.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && text.charAt(i) != '=' && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            String name = text.substring(start, i);
            if (i >= n || text.charAt(i) != '=') {
                problem("'" + name + "' is not an option", "write options as name=value, e.g. ttl=30s");
                continue;
            }
            i++;
            StringBuilder value = new StringBuilder();
            if (i < n && text.charAt(i) == '"') {
                i = quoted(text, i + 1, value, name);
            } else {
                while (i < n && !Character.isWhitespace(text.charAt(i))) {
                    value.append(text.charAt(i++));
                }
            }
            addOption(options, name, value.toString());
        }
        return options;
    }

    private int quoted(String text, int i, StringBuilder value, String name) {
        int n = text.length();
        while (i < n && text.charAt(i) != '"') {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < n) {
                c = text.charAt(++i);
            }
            value.append(c);
            i++;
        }
        if (i >= n) {
            problem("the value of " + name + " has no closing quote", "end it with \", e.g. " + name + "=\"payment:{0}\"");
        }
        return i + 1;
    }

    private void addOption(Map<String, String> options, String name, String value) {
        if (!OPTIONS.contains(name)) {
            problem("unknown option '" + name + "'" + Suggest.of(name, OPTIONS), "use " + String.join(", ", OPTIONS));
        } else if (options.containsKey(name)) {
            problem("option " + name + " is given twice", "keep one " + name + "=...");
        } else if (value.isEmpty()) {
            problem("option " + name + " has no value", "write e.g. " + name + "=" + example(name));
        } else {
            options.put(name, value);
        }
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

    private Optional<String> option(Map<String, String> options, String name) {
        return Optional.ofNullable(options.get(name));
    }

    private Duration duration(String name, String value) {
        try {
            return Durations.parse(value, name);
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
            return Duration.ofSeconds(1);
        }
    }

    private void checkTtl(Duration ttl) {
        try {
            LockOptions.ttl(ttl);
        } catch (IllegalArgumentException e) {
            problem(e.getMessage().replace("Duration.ofSeconds(30)", "ttl=30s"), "write e.g. ttl=30s");
        }
    }

    /** Checked against the rule's TTL; a rule without ttl= is checked again when the lock is first taken. */
    private void checkHoldAtLeast(Duration hold, Optional<Duration> ttl) {
        if (hold.isNegative()) {
            problem("holdAtLeast " + hold + " is negative", "write e.g. holdAtLeast=30s");
        } else if (ttl.isPresent() && hold.compareTo(ttl.get()) > 0) {
            problem("holdAtLeast " + hold + " is longer than ttl " + ttl.get(), "raise ttl= to at least holdAtLeast, e.g. ttl=5m holdAtLeast=1m");
        }
    }

    private void checkWait(Duration wait) {
        if (wait.isNegative()) {
            problem("wait " + wait + " is negative", "write wait=0s to fail at once or e.g. wait=5s");
        }
    }

    private OnBusy onBusy(String value) {
        try {
            return OnBusy.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem("onBusy=" + value + " is not FAIL or SKIP",
                    "use onBusy=FAIL (throw LockNotAcquiredException) or onBusy=SKIP (skip the body, return null/0/false); to wait, set wait=5s");
            return OnBusy.FAIL;
        }
    }

    private <E extends Enum<E>> E choice(String option, String value, Class<E> type, String fix) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(option + "=" + value + " is not one of " + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT),
                    "use " + fix);
            return type.getEnumConstants()[0];
        }
    }

    private Boolean bool(String value) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.valueOf(value);
        }
        problem("autoRefresh=" + value + " is not true or false", "write autoRefresh=true (watchdog keeps the lock) or autoRefresh=false");
        return Boolean.TRUE;
    }

    private static String example(String option) {
        return switch (option) {
            case "key" -> "\"payment:{0}\"";
            case "ttl" -> "30s";
            case "wait" -> "0s";
            case "onBusy" -> "FAIL";
            case "onLost" -> "log";
            case "onStoreDown" -> "fail";
            case "holdAtLeast" -> "30s";
            default -> "true";
        };
    }

    private static String abbreviate(String line) {
        return line.length() <= 60 ? line : line.substring(0, 57) + "...";
    }

    private void problem(String problem, String fix) {
        problems.add(where + ": " + problem + " — " + fix);
    }
}
