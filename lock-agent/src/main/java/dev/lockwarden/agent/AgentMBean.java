package dev.lockwarden.agent;

import dev.lockwarden.agent.config.AgentConfig;
import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.ObjectName;

/** The {@code dev.lockwarden:type=Agent} bean: a read-only view of the report and the counters. */
final class AgentMBean implements AgentMXBean {
    /** Built at run time: the shade plugin would relocate a "dev.lockwarden..." string constant. */
    static final String NAME = String.join(".", "dev", "lockwarden:type=Agent");

    private final AgentRuntime runtime;
    private final AgentReport report;
    private final AgentConfig config;

    private AgentMBean(AgentRuntime runtime, AgentReport report, AgentConfig config) {
        this.runtime = runtime;
        this.report = report;
        this.config = config;
    }

    /** How long after {@code premain} the bean is registered. */
    static final long REGISTER_DELAY_MILLIS = 2_000;

    /**
     * A daemon thread, not started, that registers the bean {@value #REGISTER_DELAY_MILLIS} ms after it is started
     * (returning at once when interrupted before): creating the platform MBean server
     * loads ~250 JDK classes (~0.1 s of the second core, measured on the 5,000-class start-up benchmark), which on a
     * 2-core machine still slowed the application's own start-up running beside it. Monitoring reads the bean
     * later anyway.
     */
    static Thread inBackground(AgentRuntime runtime, AgentReport report, AgentConfig config) {
        Thread t = new Thread(
                new Runnable() { // not a lambda: started in premain
                    @Override
                    public void run() {
                        try {
                            Thread.sleep(REGISTER_DELAY_MILLIS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                        register(runtime, report, config);
                    }
                },
                "lockwarden-agent-jmx");
        t.setDaemon(true);
        return t;
    }

    static void register(AgentRuntime runtime, AgentReport report, AgentConfig config) {
        try {
            ManagementFactory.getPlatformMBeanServer()
                    .registerMBean(new AgentMBean(runtime, report, config), new ObjectName(NAME));
        } catch (Exception | LinkageError e) {
            AgentLog.warn("JMX bean " + NAME + " not registered (the locks work without it): " + e);
        }
    }

    @Override
    public List<String> getRules() {
        return config.rules().stream()
                .map(r -> r.where() + ": " + r.spec() + " → " + AgentReport.describe(r))
                .toList();
    }

    @Override
    public List<String> getMatchedMethods() {
        return report.matchedMethods();
    }

    @Override
    public List<String> getUnmatchedRules() {
        return report.unmatched().stream().map(r -> r.where() + ": " + r.spec()).toList();
    }

    @Override
    public List<String> getProblems() {
        return report.problems();
    }

    @Override
    public long getCalls() {
        return runtime.stats.calls.sum();
    }

    @Override
    public long getBusy() {
        return runtime.stats.busy.sum();
    }

    @Override
    public long getLost() {
        return runtime.stats.lost.sum();
    }

    @Override
    public long getStoreDown() {
        return runtime.stats.storeDown.sum();
    }

    @Override
    public int getRunning() {
        return runtime.drain.running();
    }
}
