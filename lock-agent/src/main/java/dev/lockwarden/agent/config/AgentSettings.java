package dev.lockwarden.agent.config;

import java.time.Duration;

/**
 * Settings of the agent itself (not of the lock client).
 *
 * @param continueOnError       {@code onConfigError = continue}: a start-up problem leaves the application running
 *                              uninstrumented (with a WARNING) instead of stopping the JVM
 * @param reportUnmatchedAfter  after this delay, rules that matched no method yet are reported
 * @param drainTimeout          how long JVM shutdown waits for locked methods still running
 */
public record AgentSettings(boolean continueOnError, Duration reportUnmatchedAfter, Duration drainTimeout) {
    /** Names as written in the file; system properties are {@code lockwarden.agent.<name>}. */
    public static final String ON_CONFIG_ERROR = "onConfigError";

    public static final String REPORT_UNMATCHED_AFTER = "reportUnmatchedAfter";
    public static final String DRAIN_TIMEOUT = "drainTimeout";

    /** Defaults: stop the JVM on any problem, report unmatched rules after 60 s, drain for 30 s. */
    public static AgentSettings defaults() {
        return new AgentSettings(continueOnErrorProperty(), Duration.ofSeconds(60), Duration.ofSeconds(30));
    }

    /** {@code -Dlockwarden.agent.onConfigError=continue}, the only source left when the file cannot be read. */
    public static boolean continueOnErrorProperty() {
        return "continue"
                .equalsIgnoreCase(System.getProperty("lockwarden.agent." + ON_CONFIG_ERROR, "")
                        .strip());
    }
}
