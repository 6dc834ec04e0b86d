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
 * every problem, unless {@code onConfigError = continue} (which never applies to internal failures); a failed attach
 * changes nothing, reports the problems to the attaching side and leaves the next attach free to try again. The one
 * exception: an internal failure after the agent began instrumenting classes (part-way) — those classes then fail on
 * every call, the attaching side is told so, and every later start in this JVM is refused (restart it).
 */
public final class LockAgent {
    /** Exit status when the agent stops the JVM (sysexits' EX_CONFIG). */
    public static final int EXIT_CONFIG = 78;

    /**
     * First line of the attach report when the attach failed part-way (classes may have been changed), instead of
     * {@code FAILED}; read by the {@code attach} command.
     */
    public static final String FAILED_PART_WAY = "FAILED PART-WAY";

    private static boolean started;
    /** The cause of a start that failed part-way in this JVM, or null: no start is accepted after one. */
    private static String failedPartWay;

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
            } else if (e.internal()) {
                AgentLog.error("stopping the JVM before main (exit " + EXIT_CONFIG + "): " + e.getMessage()
                        + System.lineSeparator()
                        + "  onConfigError = continue does not apply to internal failures of the agent: no configured"
                        + " method may run without its lock. To run without the agent, remove -javaagent.");
                System.exit(EXIT_CONFIG);
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
            // part-way: classes may have been instrumented (now failing every call), so "nothing was changed" is false
            String failed = e.partWay() ? "attach failed: " : "attach failed, nothing was changed: ";
            AgentLog.error(failed + e.getMessage());
            report.ifPresent(r ->
                    write(r, (e.partWay() ? FAILED_PART_WAY : "FAILED") + System.lineSeparator() + e.getMessage()));
            throw new IllegalStateException("lockwarden-agent: " + failed + e.getMessage());
        }
    }

    private static synchronized AgentReport start(String args, Instrumentation inst, boolean attached)
            throws StartupException {
        if (failedPartWay != null) {
            throw StartupException.partWay(
                    "an earlier start of the agent failed part-way in this JVM (" + failedPartWay + "): methods it"
                            + " instrumented fail on every call, and the agent cannot be started again in this JVM."
                            + " Restart the JVM to run with the agent.",
                    null);
        }
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
        AgentReport report;
        try {
            report = AgentStartup.start(parsed, inst, attached);
        } catch (StartupException e) {
            if (e.partWay()) {
                failedPartWay = String.valueOf(e.getCause());
            }
            throw e;
        }
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
