package dev.lockwarden.agent;

import java.lang.System.Logger.Level;

/**
 * The agent's only log: {@link System.Logger} named {@code dev.lockwarden.agent}, so the host's logging (JUL by
 * default, or whatever {@code System.LoggerFinder} it installs) decides where it goes. Every line starts with
 * {@code lockwarden-agent:} so it can be found in any log.
 */
final class AgentLog {
    static final String PREFIX = "lockwarden-agent: ";
    private static final System.Logger LOG = System.getLogger("dev.lockwarden.agent");

    private AgentLog() {
    }

    static void info(String message) {
        LOG.log(Level.INFO, PREFIX + message);
    }

    static void warn(String message) {
        LOG.log(Level.WARNING, PREFIX + message);
    }

    static void error(String message) {
        LOG.log(Level.ERROR, PREFIX + message);
    }

    /**
     * During JVM shutdown java.util.logging resets itself in its own shutdown hook, concurrently with ours, so a
     * record may be dropped: shutdown lines go to the logger and to stderr.
     */
    static void atShutdown(Level level, String message) {
        LOG.log(level, PREFIX + message);
        System.err.println(PREFIX + level + ": " + message);
    }
}
