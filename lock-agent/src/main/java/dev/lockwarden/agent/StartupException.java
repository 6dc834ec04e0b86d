package dev.lockwarden.agent;

/** The agent could not start; {@link #getMessage()} lists every problem. */
final class StartupException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean continueOnError;
    private final boolean internal;
    private final boolean partWay;

    /** A config or argument problem: {@code continueOnError} as the config (or property) asks. */
    StartupException(String message, boolean continueOnError, Throwable cause) {
        this(message, continueOnError, false, false, cause);
    }

    private StartupException(
            String message, boolean continueOnError, boolean internal, boolean partWay, Throwable cause) {
        super(message, cause);
        this.continueOnError = continueOnError;
        this.internal = internal;
        this.partWay = partWay;
    }

    /** An internal failure of the agent before it changed anything: never continued past, whatever the config says. */
    static StartupException internal(String message, Throwable cause) {
        return new StartupException(message, false, true, false, cause);
    }

    /**
     * An internal failure after the agent may already have instrumented classes (or in a JVM where an earlier start
     * did): never continued past, and the JVM must be restarted before the agent can start.
     */
    static StartupException partWay(String message, Throwable cause) {
        return new StartupException(message, false, true, true, cause);
    }

    /** Whether {@code onConfigError = continue} asks to run on without agent locks. */
    boolean continueOnError() {
        return continueOnError;
    }

    /** Whether this is an internal failure of the agent (not a config error): {@code continue} never applies. */
    boolean internal() {
        return internal;
    }

    /** Whether the JVM may have been changed: classes instrumented before the failure (they now fail every call). */
    boolean partWay() {
        return partWay;
    }
}
