package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** kill -TERM on a child JVM in the middle of a locked call; the JMX bean read from outside. */
@Timeout(150)
class DrainAndJmxIT extends RedisAgentTestBase {
    private Path config(String drainTimeout) throws Exception {
        return config(
                "drain.conf",
                drainTimeout.isEmpty() ? "# default drain timeout" : "drainTimeout = " + drainTimeout,
                "com.acme.legacy.Jobs#hold key=\"job:{0}\" ttl=10s",
                "com.acme.legacy.Jobs#charge key=\"job:{0}\"",
                "com.acme.legacy.Jobs#report key=\"report:{0}\"",
                "com.acme.legacy.NoSuchClass#run key=\"x\"");
    }

    @Test
    void sigtermLetsTheRunningCallFinishUnderItsLockAndRefusesNewOnes() throws Exception {
        Path config = config("");
        // the call holds 5 s: reading the JMX bean first may wait up to its 2 s registration delay
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "drain", "5000")) {
            app.awaitLine("WAITING", RUN);
            assertJmx(app.pid(), config);
            long t0 = System.nanoTime();
            kill(app.pid());
            Thread.sleep(800);
            assertTrue(exists("lock:{job:d1}"), "the running call keeps its lock after SIGTERM\n" + app);
            assertEquals(143, app.waitFor(RUN), "ended by SIGTERM\n" + app);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 1500, "shutdown waited for the call: " + ms + " ms");
            String out = app.stdout();
            assertTrue(out.contains("BUSY LockNotAcquiredException"), app.toString());
            assertTrue(out.contains("HOLD-DONE"), "the call returned normally\n" + app);
            assertTrue(
                    out.contains(
                            "DRAIN-REJECTED lockwarden-agent: the JVM is shutting down; com.acme.legacy.Jobs#report was not started"),
                    "new calls fail fast\n" + app);
            // the app's own shutdown hook may be inside a report() call when the drain starts: 1 or 2 calls
            assertTrue(
                    app.stderr()
                                    .matches(
                                            "(?s).*shutdown: waiting up to 30 s for [12] locked call\\(s\\) to return; new calls fail.*")
                            && app.stderr().contains("shutdown: every locked call returned"),
                    app.toString());
            assertTrue(
                    app.stderr()
                            .contains(config
                                    + ":6: rule com.acme.legacy.NoSuchClass#run matched no method before shutdown"),
                    app.toString());
            assertFalse(exists("lock:{job:d1}"), "released once the call returned");
        }
    }

    @Test
    void theDrainIsBoundedByItsTimeout() throws Exception {
        Path config = config("1s");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "drain", "60000")) {
            app.awaitLine("WAITING", RUN);
            long t0 = System.nanoTime();
            kill(app.pid());
            assertEquals(143, app.waitFor(RUN), app.toString());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 10_000, "stopped after the drain timeout, not after the call: " + ms + " ms");
            assertTrue(
                    app.stderr()
                            .contains("shutdown: 1 locked call(s) still running after the drain timeout of 1 s;"
                                    + " releasing their locks now"),
                    app.toString());
            assertFalse(app.stdout().contains("HOLD-DONE"), app.toString());
            assertFalse(exists("lock:{job:d1}"), "released at the end of the drain, not left for the TTL");
        }
    }

    private static void assertJmx(long pid, Path config) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection mbeans = jmx.getMBeanServerConnection();
            ObjectName name = new ObjectName("dev.lockwarden:type=Agent");
            // registered AgentMBean.REGISTER_DELAY_MILLIS after start: wait for it, bounded
            long deadline = System.nanoTime() + 15_000_000_000L;
            while (!mbeans.isRegistered(name) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            List<String> rules = Arrays.asList((String[]) mbeans.getAttribute(name, "Rules"));
            assertEquals(4, rules.size(), rules.toString());
            assertTrue(
                    rules.get(0).startsWith(config + ":3: com.acme.legacy.Jobs#hold → method hold"), rules.toString());
            List<String> matched = Arrays.asList((String[]) mbeans.getAttribute(name, "MatchedMethods"));
            assertTrue(
                    matched.contains(config + ":3: com.acme.legacy.Jobs#hold(java.lang.String, long)"),
                    matched.toString());
            assertEquals(List.of(config + ":6: com.acme.legacy.NoSuchClass#run"), Arrays.asList((String[])
                    mbeans.getAttribute(name, "UnmatchedRules")));
            assertEquals(2L, mbeans.getAttribute(name, "Calls"), "hold + the busy charge");
            assertEquals(1L, mbeans.getAttribute(name, "Busy"));
            assertEquals(0L, mbeans.getAttribute(name, "Lost"));
            assertEquals(0L, mbeans.getAttribute(name, "StoreDown"));
            assertEquals(0, ((String[]) mbeans.getAttribute(name, "Problems")).length);
            assertEquals(1, mbeans.getAttribute(name, "Running"), "hold() is running");
        }
    }

    private static void kill(long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(pid))
                .inheritIO()
                .start();
        assertEquals(0, kill.waitFor(), "kill -TERM " + pid);
    }

    private static boolean exists(String key) {
        return "1".equals(redis.node(0).command("EXISTS", key));
    }
}
