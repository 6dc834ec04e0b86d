package dev.lockwarden.agent;

import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Entry point of {@code -javaagent:lock-agent.jar=config=/path/locks.conf} (and of dynamic attach).
 * Tiny on purpose: guards against a second attach and never lets an agent failure reach the host.
 */
public final class LockAgent {
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private LockAgent() {
    }

    /** Called by the JVM before {@code main} for {@code -javaagent}. */
    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    /** Called by the JVM when the agent is attached to a running process. */
    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    private static void start(String args, Instrumentation inst, boolean attached) {
        if (!STARTED.compareAndSet(false, true)) {
            System.err.println("lockwarden-agent: already installed in this JVM; ignoring the second attach");
            return;
        }
        try {
            AgentStartup.start(args, inst, attached);
        } catch (Throwable t) {
            System.err.println("lockwarden-agent: not installed, the application runs without agent locks: " + t);
        }
    }
}
