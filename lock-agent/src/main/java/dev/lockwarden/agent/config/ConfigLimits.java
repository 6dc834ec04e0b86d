package dev.lockwarden.agent.config;

import java.util.List;

/**
 * Bounds on what a config file may hold, so a hostile or broken file cannot make start-up slow or large: the file's
 * size, the length of a line, the number of rules and the size of a pattern. A file beyond any of them stops the JVM
 * with the line, even with {@code onConfigError = continue}: the rules it would drop must not run unlocked.
 */
final class ConfigLimits {
    /** The largest config file read, in bytes. */
    static final int MAX_FILE_BYTES = 1024 * 1024;
    /** The longest line, in characters. */
    static final int MAX_LINE_CHARS = 4096;
    /** The most rules in one file. */
    static final int MAX_RULES = 1000;
    /** The longest class or method pattern, in characters. */
    static final int MAX_PATTERN_CHARS = 256;
    /** The most {@code *} in one class or method pattern. */
    static final int MAX_WILDCARDS = 8;

    private ConfigLimits() {}

    /** A file beyond a limit: never continued past. */
    static final class Exceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exceeded(String message) {
            super(message, null, false, false);
        }

        AgentConfigException asConfigError(String file) {
            return new AgentConfigException(file, List.of(getMessage()), false);
        }
    }

    static void fileSize(String file, long bytes) {
        if (bytes > MAX_FILE_BYTES) {
            throw new Exceeded(file + ": the file is larger than " + MAX_FILE_BYTES
                    + " bytes (the agent's limit) — a lock" + " config holds settings and at most " + MAX_RULES
                    + " rules; check that -javaagent names the right file");
        }
    }

    static void line(String where, String line) {
        if (line.length() > MAX_LINE_CHARS) {
            throw new Exceeded(where + ": the line is longer than " + MAX_LINE_CHARS + " characters (the agent's limit)"
                    + " — write one rule or setting per line");
        }
    }

    static void ruleCount(String where, int rules) {
        if (rules > MAX_RULES) {
            throw new Exceeded(where + ": more than " + MAX_RULES + " rules (the agent's limit) — use patterns"
                    + " (com.acme.jobs.*Job#run) or + for subtypes instead of one rule per class");
        }
    }

    static void pattern(String where, String pattern) {
        int stars = 0;
        for (int i = 0; i < pattern.length(); i++) {
            stars += pattern.charAt(i) == '*' ? 1 : 0;
        }
        if (pattern.length() > MAX_PATTERN_CHARS || stars > MAX_WILDCARDS) {
            throw new Exceeded(where + ": pattern '" + pattern.substring(0, Math.min(pattern.length(), 60))
                    + (pattern.length() > 60 ? "..." : "") + "' has " + pattern.length() + " characters and " + stars
                    + " wildcards; the agent's limits are " + MAX_PATTERN_CHARS + " and " + MAX_WILDCARDS
                    + " — write a simpler pattern");
        }
    }
}
