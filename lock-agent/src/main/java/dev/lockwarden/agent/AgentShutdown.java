package dev.lockwarden.agent;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * At JVM shutdown (SIGTERM, System.exit): refuse new locked calls, let the ones running finish under their locks
 * for up to the drain timeout, then close the lock client (releasing what is left) and report unmatched rules.
 */
final class AgentShutdown {
    private AgentShutdown() {}

    /** Registers the hook; returns it, so that a start that fails later can remove it again. */
    static Thread register(AgentRuntime runtime, AgentReport report, Duration drainTimeout) {
        Thread hook = new Thread(
                new Runnable() { // not a lambda: registered in premain
                    @Override
                    public void run() {
                        AgentShutdown.run(runtime, report, drainTimeout);
                    }
                },
                "lockwarden-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    private static void run(AgentRuntime runtime, AgentReport report, Duration drainTimeout) {
        AgentLog.shutdown();
        int running = runtime.drain.close();
        if (running > 0) {
            AgentLog.atShutdown(
                    Level.INFO,
                    "shutdown: waiting up to " + drainTimeout.toSeconds() + " s for " + running
                            + " locked call(s) to return; new calls fail");
            try {
                int left = runtime.drain.await(drainTimeout);
                if (left > 0) {
                    AgentLog.atShutdown(
                            Level.WARNING,
                            "shutdown: " + left + " locked call(s) still running after the drain timeout of "
                                    + drainTimeout.toSeconds()
                                    + " s; releasing their locks now (drainTimeout setting)");
                } else {
                    AgentLog.atShutdown(Level.INFO, "shutdown: every locked call returned");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        report.reportUnmatched("before shutdown", true);
        runtime.locks().close();
    }
}
