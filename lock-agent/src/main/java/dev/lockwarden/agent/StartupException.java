package dev.lockwarden.agent;

/** The agent could not start; {@link #getMessage()} lists every problem. */
final class StartupException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean continueOnError;

    StartupException(String message, boolean continueOnError, Throwable cause) {
        super(message, cause);
        this.continueOnError = continueOnError;
    }

    /** Whether {@code onConfigError = continue} asks to run on without agent locks. */
    boolean continueOnError() {
        return continueOnError;
    }
}
