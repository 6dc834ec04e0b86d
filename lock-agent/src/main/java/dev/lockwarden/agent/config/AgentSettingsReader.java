package dev.lockwarden.agent.config;

import dev.lockwarden.config.Durations;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads the agent's own setting lines ({@code onConfigError}, {@code reportUnmatchedAfter}, {@code drainTimeout}). */
final class AgentSettingsReader {
    static final List<String> NAMES =
            List.of(AgentSettings.ON_CONFIG_ERROR, AgentSettings.REPORT_UNMATCHED_AFTER, AgentSettings.DRAIN_TIMEOUT);

    private final Map<String, Integer> lines = new HashMap<>();
    private Boolean continueOnError;
    private Duration reportUnmatchedAfter;
    private Duration drainTimeout;

    void read(String where, int number, String name, String value, List<String> problems) {
        Integer first = lines.putIfAbsent(name, number);
        if (first != null) {
            problems.add(where + ": setting '" + name + "' is already set on line " + first + " — keep one of them");
            return;
        }
        switch (name) {
            case AgentSettings.ON_CONFIG_ERROR -> {
                String v = value.toLowerCase(Locale.ROOT);
                if (v.equals("fail") || v.equals("continue")) {
                    continueOnError = v.equals("continue");
                } else {
                    problems.add(
                            where + ": onConfigError = '" + value
                                    + "' is not fail or continue — write onConfigError = fail"
                                    + " (stop the JVM on any agent problem, the default) or onConfigError = continue (run without agent locks)");
                }
            }
            case AgentSettings.REPORT_UNMATCHED_AFTER -> reportUnmatchedAfter = duration(where, name, value, problems);
            default -> drainTimeout = duration(where, name, value, problems);
        }
    }

    private static Duration duration(String where, String name, String value, List<String> problems) {
        try {
            Duration d = Durations.parse(value, name);
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " = '" + value + "' is negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage() + " — write e.g. " + name + " = 30s");
            return null;
        }
    }

    /** The file's value, else {@code -Dlockwarden.agent.onConfigError}. */
    boolean continueOnError() {
        return continueOnError != null ? continueOnError : AgentSettings.continueOnErrorProperty();
    }

    AgentSettings settings() {
        AgentSettings d = AgentSettings.defaults();
        return new AgentSettings(
                continueOnError(),
                pick(reportUnmatchedAfter, AgentSettings.REPORT_UNMATCHED_AFTER, d.reportUnmatchedAfter()),
                pick(drainTimeout, AgentSettings.DRAIN_TIMEOUT, d.drainTimeout()));
    }

    /** File value, else {@code -Dlockwarden.agent.<name>}, else the default. */
    private static Duration pick(Duration fromFile, String name, Duration fallback) {
        if (fromFile != null) {
            return fromFile;
        }
        String p = System.getProperty("lockwarden.agent." + name);
        return p == null || p.isBlank() ? fallback : Durations.parse(p, "system property lockwarden.agent." + name);
    }
}
