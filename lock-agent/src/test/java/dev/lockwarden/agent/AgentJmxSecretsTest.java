package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigParser;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * Every attribute of the real {@code dev.lockwarden:type=Agent} bean (platform MBean server, in this JVM), the
 * parsed config's {@code toString()} and the failure a call gets when Redis is down never contain the Redis
 * password, even with '/', '@' and '+' in it.
 */
class AgentJmxSecretsTest {
    private static final String PASSWORD = SecretsIT.PASSWORD;

    @Test
    void jmxAttributesConfigAndCallFailuresNeverShowThePassword() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        AgentConfig config = AgentConfigParser.parse(
                "s.conf",
                List.of("redis = redis://app:" + PASSWORD + "@127.0.0.1:" + closed, "com.acme.X#a key=\"x:{0}\""));
        AgentRuntime runtime = new AgentRuntime(config);
        AgentReport report = new AgentReport(config);
        int id = runtime.register(
                config.rules().get(0),
                "com.acme.X#a(I)V",
                "com.acme.X#a",
                dev.lockwarden.KeyTemplate.parse("x:{0}", List.of("n")),
                null);
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, runtime.enter(id, new Object[] {1}));
        report.problem("store down: " + skip.failure.getMessage());
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(AgentMBean.NAME);
        AgentMBean.register(runtime, report, config);
        try {
            StringBuilder all = new StringBuilder();
            for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                Object v = server.getAttribute(name, a.getName());
                all.append(a.getName())
                        .append('=')
                        .append(v instanceof String[] s ? Arrays.toString(s) : v)
                        .append('\n');
            }
            assertTrue(all.toString().contains("Rules=[s.conf:2: com.acme.X#a"), all.toString());
            assertTrue(all.toString().contains("StoreDown=1"), all.toString());
            String text =
                    all + "\n" + config + "\n" + skip.failure + "\n" + Arrays.toString(skip.failure.getStackTrace());
            for (String part : new String[] {PASSWORD, "S3cr/t", "pa+ss"}) {
                assertFalse(text.contains(part), "'" + part + "' in:\n" + text);
            }
            assertEquals(9, server.getMBeanInfo(name).getAttributes().length, "every attribute was read");
        } finally {
            server.unregisterMBean(name);
        }
    }
}
