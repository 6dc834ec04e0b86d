package benchtarget;

import java.lang.instrument.Instrumentation;

/**
 * A java agent that does nothing: the start-up benchmark packs it into its own jar to measure what any
 * {@code -javaagent} costs the JVM (the instrument module, the agent jar), the floor no agent goes below.
 */
public final class EmptyAgent {
    private EmptyAgent() {}

    public static void premain(String args, Instrumentation inst) {
        // nothing: the cost measured is the JVM's
    }
}
