package dev.lockwarden.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Entry point of {@code -javaagent:lock-agent.jar=config=/path/locks.conf} and of dynamic attach. Fails closed:
 * any start-up problem stops the JVM before {@code main} (exit {@value #EXIT_CONFIG}) with one message listing
 * every problem, unless {@code onConfigError = continue}; a failed attach changes nothing, reports the problems to
 * the attaching side and leaves the next attach free to try again.
 */
public final class LockAgent {
    /** Exit status when the agent stops the JVM (sysexits' EX_CONFIG). */
    public static final int EXIT_CONFIG = 78;

    private static boolean started;

    private LockAgent() {}

    /** Called by the JVM before {@code main} for {@code -javaagent}. */
    public static void premain(String args, Instrumentation inst) {
        StartupStamps.mark("premain-entered");
        WeaverWarmUp.start();
        try {
            start(args, inst, false);
            StartupStamps.mark("premain-done");
        } catch (StartupException e) {
            if (e.continueOnError()) {
                AgentLog.warn(
                        "onConfigError = continue: the application runs WITHOUT ANY AGENT LOCKS. " + e.getMessage());
            } else {
                AgentLog.error("stopping the JVM before main (exit " + EXIT_CONFIG + "): " + e.getMessage()
                        + System.lineSeparator()
                        + "  Fix the problems above, or set onConfigError = continue in the config"
                        + " (or -Dlockwarden.agent.onConfigError=continue) to run without agent locks.");
                System.exit(EXIT_CONFIG);
            }
        }
    }

    /** Called by the JVM when the agent is attached to a running process; throws so the attaching side sees it. */
    public static void agentmain(String args, Instrumentation inst) {
        Optional<Path> report = AgentArgs.reportOf(args);
        try {
            AgentReport installed = start(args, inst, true);
            StringBuilder ok = new StringBuilder("OK");
            installed
                    .matchedMethods()
                    .forEach(m -> ok.append(System.lineSeparator())
                            .append("instrumented ")
                            .append(m));
            installed
                    .problems()
                    .forEach(p ->
                            ok.append(System.lineSeparator()).append("problem ").append(p));
            report.ifPresent(r -> write(r, ok.toString()));
        } catch (StartupException e) {
            AgentLog.error("attach failed, nothing was changed: " + e.getMessage());
            report.ifPresent(r -> write(r, "FAILED" + System.lineSeparator() + e.getMessage()));
            throw new IllegalStateException("lockwarden-agent: attach failed, nothing was changed: " + e.getMessage());
        }
    }

    private static synchronized AgentReport start(String args, Instrumentation inst, boolean attached)
            throws StartupException {
        if (started) {
            throw new StartupException(
                    "the agent is already active in this JVM; rules cannot be changed at run time"
                            + " (restart the JVM with the new config)",
                    false,
                    null);
        }
        AgentArgs parsed;
        try {
            parsed = AgentArgs.parse(args);
        } catch (IllegalArgumentException e) {
            throw AgentStartup.arguments(e);
        }
        StartupStamps.mark("args");
        AgentReport report = AgentStartup.start(parsed, inst, attached);
        started = true;
        return report;
    }

    private static void write(Path report, String text) {
        try {
            Files.writeString(report, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            AgentLog.warn("could not write the attach report " + report + ": " + e);
        }
    }
}
