package dev.lockwarden.agent;

/**
 * The agent's last resort: when a class a rule names can be neither woven nor made to fail, the JVM is stopped at
 * once ({@link Runtime#halt}, from inside the class load, so the class is never used) with one message naming the
 * class, the rule line and the cause. {@code halt} rather than {@code exit}: shutdown hooks could call the very
 * class that is being loaded, or wait for the class-loading lock this thread holds.
 */
final class Halt {
    /** Exit status when the agent stops the JVM on an internal failure (sysexits' EX_SOFTWARE). */
    static final int EXIT_INTERNAL = 70;

    private Halt() {}

    static void stop(String message) {
        try {
            String line = "stopping the JVM (exit " + EXIT_INTERNAL + "): " + message;
            try {
                AgentLog.error(line);
            } catch (Throwable e) {
                System.err.println(AgentLog.PREFIX + line);
            }
            System.err.flush();
        } finally {
            Runtime.getRuntime().halt(EXIT_INTERNAL); // even when the message cannot be written (out of memory)
        }
    }
}
