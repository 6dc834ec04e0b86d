package dev.lockwarden.agent;

/**
 * Start-up time stamps for measuring the agent's own cost (the benchmark's "main-thread stamps"): with
 * {@code -Dlockwarden.agent.stamps=true} each step of {@code premain} and the first weave print their elapsed
 * milliseconds (and the wall clock, epoch ms) to stderr. Off by default; costs one property look-up. Written without string concatenation by
 * invokedynamic, lambdas or formatting, so measuring does not add the start-up work it measures.
 */
final class StartupStamps {
    private static final boolean ON = Boolean.getBoolean("lockwarden.agent.stamps");
    private static long last = System.nanoTime();

    private StartupStamps() {}

    /** Prints the time since the previous stamp (or class initialisation) under {@code step}. */
    static synchronized void mark(String step) {
        if (!ON) {
            return;
        }
        long now = System.nanoTime();
        long micros = (now - last) / 1_000;
        last = now;
        StringBuilder b = new StringBuilder(64)
                .append("lockwarden-agent stamp ")
                .append(step)
                .append(' ')
                .append(micros / 1000)
                .append('.')
                .append((char) ('0' + micros % 1000 / 100))
                .append(" ms at ")
                .append(System.currentTimeMillis()); // wall clock, to line up with the process's start
        System.err.println(b);
    }
}
