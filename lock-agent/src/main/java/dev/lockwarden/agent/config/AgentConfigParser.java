package dev.lockwarden.agent.config;

import dev.lockwarden.LockOptions;
import dev.lockwarden.config.Durations;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parses the lock-agent config file. One entry per line; blank lines and lines starting with
 * {@code #} are ignored.
 *
 * <pre>
 * # settings (same names as the lockwarden.* system properties, without the prefix)
 * redis = redis://127.0.0.1:6379
 * # or: sentinel = mymaster@redis://s1:26379,redis://s2:26379 (also redlock, cluster; one of them)
 * replica-acks = 1/100ms
 * application = billing
 * # agent settings
 * onConfigError = fail
 * # rules: ClassPattern#methodPattern[(parameter types)] key="template" [options], see RuleLine
 * com.acme.Billing#charge(java.lang.String, long) key="payment:{0}" ttl=30s wait=0s onBusy=FAIL
 * com.acme.PaymentHandler+#handle(..) key="{class}:{0.id}"
 * </pre>
 *
 * <p>The parser is strict and reports every problem of the file at once in one
 * {@link AgentConfigException}, each as {@code file:line: problem — fix}.
 */
public final class AgentConfigParser {
    private final String file;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final Map<String, Integer> settingLines = new LinkedHashMap<>();
    private final List<LockRule> rules = new ArrayList<>();
    private final Map<String, Integer> ruleLines = new LinkedHashMap<>();
    /** Per method ({@code Class#method}): the first rule's line, and the line of a rule for every overload. */
    private final Map<String, Integer> methodLines = new HashMap<>();

    private final Map<String, Integer> allOverloadLines = new HashMap<>();
    private final AgentSettingsReader agent = new AgentSettingsReader();

    private AgentConfigParser(String file) {
        this.file = file;
    }

    /** Reads and parses {@code path}. */
    public static AgentConfig parse(Path path) throws AgentConfigException {
        List<String> lines;
        try {
            lines = ConfigText.lines(path);
        } catch (ConfigLimits.Exceeded e) {
            throw e.asConfigError(path.toString());
        } catch (IOException e) {
            throw new AgentConfigException(
                    path.toString(),
                    List.of(path + ": cannot read the file (" + e
                            + ") — check the path given as -javaagent:lock-agent.jar=config=/path/to/locks.conf, "
                            + "-Dlockwarden.agent.config or LOCKWARDEN_AGENT_CONFIG"),
                    AgentSettings.continueOnErrorProperty());
        }
        return parse(path.toString(), lines);
    }

    /** Parses the lines of a config file; {@code file} names it in messages. */
    public static AgentConfig parse(String file, List<String> lines) throws AgentConfigException {
        AgentConfigParser p = new AgentConfigParser(file);
        try {
            for (int i = 0; i < lines.size(); i++) {
                p.line(i + 1, lines.get(i));
            }
        } catch (ConfigLimits.Exceeded e) {
            throw e.asConfigError(file);
        }
        return p.finish();
    }

    private AgentConfig finish() throws AgentConfigException {
        if (rules.isEmpty() && problems.isEmpty()) {
            problems.add(file + ": no lock rules — add a line such as "
                    + "com.acme.Billing#charge(java.lang.String) key=\"payment:{0}\" ttl=30s onBusy=FAIL");
        }
        TopologyCheck.check(file, settings, settingLines, rules, problems);
        if (problems.isEmpty()) {
            Optional<String> tls = TlsCheck.check(file, settings, settingLines);
            if (tls.isPresent()) {
                problems.add(tls.get());
            }
        }
        if (!problems.isEmpty()) {
            throw new AgentConfigException(file, problems, agent.continueOnError());
        }
        return new AgentConfig(file, settings, agent.settings(), rules);
    }

    private void line(int number, String raw) {
        String where = file + ":" + number;
        ConfigLimits.line(where, raw);
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        int eq = settingEquals(line);
        if (eq > 0) {
            setting(
                    where,
                    number,
                    line.substring(0, eq).strip(),
                    line.substring(eq + 1).strip());
        } else {
            Optional<LockRule> rule = RuleLine.parse(where, line, problems);
            if (rule.isPresent()) {
                addRule(number, rule.get());
            }
        }
    }

    /**
     * For a setting line ({@code name = value}, the name {@code [A-Za-z][A-Za-z0-9.-]*}), the index of its {@code =};
     * else -1. By hand rather than a regular expression: this runs in premain (see {@link RuleLine}).
     */
    static int settingEquals(String line) {
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            boolean letter = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
            if (!(letter || i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-'))) {
                break;
            }
            i++;
        }
        if (i == 0) {
            return -1;
        }
        while (i < n && isRegexSpace(line.charAt(i))) {
            i++;
        }
        return i < n && line.charAt(i) == '=' ? i : -1;
    }

    /** What the regex \s matches by default. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    private void setting(String where, int number, String name, String value) {
        if (AgentSettingsReader.NAMES.contains(name)) {
            agent.read(where, number, name, value, problems);
            return;
        }
        String full = name.startsWith("lockwarden.") ? name : "lockwarden." + name;
        Optional<String> problem = SettingCheck.check(full, value);
        if (problem.isPresent()) {
            problems.add(where + ": " + problem.get());
            return;
        }
        Integer first = settingLines.putIfAbsent(full, number);
        if (first != null) {
            problems.add(where + ": setting '" + name + "' is already set on line " + first + " — keep one of them");
            return;
        }
        settings.put(full, value);
    }

    private void addRule(int number, LockRule rule) {
        String exact = rule.spec().replace(" ", "");
        String any = rule.methodId();
        Integer first = ruleLines.get(exact);
        if (first != null) {
            problems.add(rule.where() + ": duplicate rule for " + rule.spec() + " (first on line " + first
                    + ") — remove one of them");
            return;
        }
        // a rule without parameter types covers every overload: it overlaps any other rule of the method
        Integer overlap = rule.parameterTypes().isEmpty() ? methodLines.get(any) : allOverloadLines.get(any);
        if (overlap != null) {
            problems.add(
                    rule.where() + ": rule for " + rule.spec() + " overlaps the rule on line " + overlap
                            + " (a rule without parameter types covers every overload) — remove one or list parameter types on both");
            return;
        }
        ConfigLimits.ruleCount(rule.where(), rules.size() + 1);
        ruleLines.put(exact, number);
        methodLines.putIfAbsent(any, number);
        if (rule.parameterTypes().isEmpty()) {
            allOverloadLines.putIfAbsent(any, number);
        }
        rules.add(rule);
    }

    /** Validates the value of one setting line. */
    static final class SettingCheck {
        static final List<String> NAMES = List.of(
                "redis",
                "redlock",
                "cluster",
                "sentinel",
                "replica-acks",
                "application",
                "key-prefix",
                "ttl",
                "wait",
                "fence-retention",
                "tls.trust-store",
                "tls.trust-store-password",
                "tls.trust-store-type",
                "tls.key-store",
                "tls.key-store-password",
                "tls.key-store-type");

        private SettingCheck() {}

        static Optional<String> check(String full, String value) {
            String name = full.substring("lockwarden.".length());
            if (!NAMES.contains(name)) {
                List<String> all = new ArrayList<>(NAMES);
                all.addAll(AgentSettingsReader.NAMES);
                return Optional.of("unknown setting '" + name + "'" + Suggest.of(name, all) + " — use one of "
                        + String.join(", ", all));
            }
            if (value.isEmpty()) {
                return Optional.of("setting '" + name + "' has no value — write e.g. " + example(name));
            }
            try {
                switch (name) {
                    case "redis" -> dev.lockwarden.config.RedisUri.parse(value);
                    case "redlock", "cluster" -> {
                        for (String u : value.split(",")) {
                            dev.lockwarden.config.RedisUri.parse(u.strip());
                        }
                    }
                    case "sentinel" -> TopologyCheck.sentinel(value);
                    case "replica-acks" -> ReplicaAckSpec.parse(value, name);
                    case "ttl" -> LockOptions.ttl(Durations.parse(value, name));
                    case "wait" -> LockOptions.defaults().waitUpTo(Durations.parse(value, name));
                    case "fence-retention" -> Durations.parse(value, name);
                    case "key-prefix" -> dev.lockwarden.config.Settings.checkKeyPrefix(value);
                    default -> {
                        // application: any text
                    }
                }
            } catch (IllegalArgumentException e) {
                String msg = e.getMessage().startsWith(name) ? e.getMessage() : name + ": " + e.getMessage();
                return Optional.of(msg.contains("write e.g.") ? msg : msg + " — write e.g. " + example(name));
            }
            return Optional.empty();
        }

        private static String example(String name) {
            return switch (name) {
                case "redis" -> "redis = redis://127.0.0.1:6379";
                case "redlock", "cluster" -> name + " = redis://h1:6379,redis://h2:6379,redis://h3:6379";
                case "sentinel" -> "sentinel = mymaster@redis://s1:26379,redis://s2:26379,redis://s3:26379";
                case "replica-acks" -> "replica-acks = 1/100ms (replicas/timeout) or off";
                case "ttl" -> "ttl = 30s";
                case "wait" -> "wait = 0s";
                case "fence-retention" -> "fence-retention = 7d";
                case "tls.trust-store", "tls.key-store" ->
                    name + " = /etc/lockwarden/" + (name.contains("trust") ? "truststore" : "client") + ".p12";
                case "tls.trust-store-type", "tls.key-store-type" -> name + " = PKCS12";
                case "tls.trust-store-password", "tls.key-store-password" ->
                    name + " = <the store's password> (or the environment variable "
                            + dev.lockwarden.config.Settings.envName("lockwarden." + name) + ")";
                case "key-prefix" -> "key-prefix = lock:";
                default -> name + " = billing";
            };
        }
    }
}
