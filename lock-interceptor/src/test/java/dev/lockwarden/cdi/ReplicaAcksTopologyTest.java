package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.cdi.sentinel.ReplicatedJobs;
import dev.lockwarden.testing.RedisCluster;
import dev.lockwarden.testing.RedisServerExtension;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked(replicaAcks)} is checked at start-up against the manager the application gets: on Redlock it fails
 * deployment naming the method, as does a timeout not under the manager's default TTL; on a single node with the
 * default TTL the same beans deploy (the control), and on Redis Cluster too (where lock-core waits for replicas).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicaAcksTopologyTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(3);

    @Test
    void onRedlockDeploymentFailsNamingTheMethod() {
        String message = deploymentError(Map.of("lockwarden.redlock", String.join(",", redis.uris())));
        assertTrue(
                message.contains("@Locked(replicaAcks = \"1/200ms\") on " + ReplicatedJobs.class.getName()
                        + "#acked: the LockManager runs on Redlock"),
                message);
        assertTrue(message.contains("Remove replicaAcks"), message);
    }

    @Test
    void aTimeoutNotUnderTheDefaultTtlFailsDeployment() {
        String message = deploymentError(Map.of("lockwarden.redis", redis.uri(), "lockwarden.ttl", "200ms"));
        assertTrue(message.contains(ReplicatedJobs.class.getName() + "#acked"), message);
        assertTrue(message.contains("is not shorter than the ttl PT0.2S"), message);
    }

    @Test
    void onOneNodeWithTheDefaultTtlTheBeansDeploy() {
        Config config = register(Map.of("lockwarden.redis", redis.uri()));
        try (WeldContainer c = weld().initialize()) {
            ReplicatedJobs.unackedRuns.set(0);
            c.select(ReplicatedJobs.class).get().unacked();
            assertEquals(1, ReplicatedJobs.unackedRuns.get());
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }

    @Test
    void onClusterTheBeansDeploy() {
        try (RedisCluster cluster = new RedisCluster(3).start()) {
            Config config = register(Map.of("lockwarden.cluster", String.join(",", cluster.seedUris())));
            try (WeldContainer c = weld().initialize()) {
                ReplicatedJobs.unackedRuns.set(0);
                c.select(ReplicatedJobs.class).get().unacked();
                assertEquals(1, ReplicatedJobs.unackedRuns.get());
            } finally {
                ConfigProviderResolver.instance().releaseConfig(config);
            }
        }
    }

    private static String deploymentError(Map<String, String> settings) {
        Config config = register(settings);
        try {
            RuntimeException e = assertThrows(
                    RuntimeException.class, () -> weld().initialize().close());
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t).append('\n');
            }
            return all.toString();
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }

    private static Weld weld() {
        return new Weld("replica-acks-topology-" + System.nanoTime())
                .disableDiscovery()
                .addBeanClasses(ReplicatedJobs.class)
                .addExtension(new LockedExtension());
    }

    /** MicroProfile Config with only these settings (and the application name) for this class loader. */
    private static Config register(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("lockwarden.application", "replica-acks-topology");
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(all, "test-source", 500))
                .build();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.releaseConfig(resolver.getConfig(loader));
        resolver.registerConfig(config, loader);
        return config;
    }
}
