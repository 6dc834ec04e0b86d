package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.cdi.sentinel.ReplicatedJobs;
import dev.lockwarden.testing.RedisSentinelGroup;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code @Locked} beans on a Redis Sentinel group (a master, two replicas behind relays, three sentinels)
 * configured through MicroProfile Config only: {@code lockwarden.sentinel} and {@code lockwarden.replica-acks}
 * reach the default producer, and {@code @Locked(replicaAcks)} overrides the manager's default per method.
 * With replication held back, a method that asks for an acknowledgement fails with {@link LockStoreException}
 * and its body does not run; one that does not ask runs (the control). One group for the whole class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SentinelLockedTest {
    private static RedisSentinelGroup group;

    @BeforeAll
    static void startGroup() {
        group = new RedisSentinelGroup(true).start();
    }

    @AfterAll
    static void stopGroup() {
        group.close();
    }

    @AfterEach
    void flow() {
        group.flowReplication();
    }

    @Test
    void sentinelFromMicroProfileConfigAndAPerMethodAcknowledgement() {
        onContainer(Map.of(), (container) -> {
            LockManager locks = container.select(LockManager.class).get();
            assertTrue(
                    locks.describeRedis().startsWith("sentinel[" + RedisSentinelGroup.MASTER_NAME + "@"),
                    locks.describeRedis());
            assertTrue(locks.describeRedis().contains(":" + group.master().port()), locks.describeRedis());
            ReplicatedJobs jobs = container.select(ReplicatedJobs.class).get();
            jobs.plain();
            jobs.acked();
            assertEquals(1, ReplicatedJobs.plainRuns.get());
            assertEquals(1, ReplicatedJobs.ackedRuns.get(), "replication flowing: the acknowledged method runs");

            group.holdReplication();
            LockStoreException e = assertThrows(LockStoreException.class, jobs::acked);
            assertTrue(e.getMessage().contains("acknowledged"), e.getMessage());
            assertEquals(1, ReplicatedJobs.ackedRuns.get(), "the body ran without the replica's acknowledgement");
            jobs.plain(); // the control: the manager's default is off, so replication held back does not matter
            assertEquals(2, ReplicatedJobs.plainRuns.get());
            group.flowReplication();
            jobs.acked();
            assertEquals(2, ReplicatedJobs.ackedRuns.get(), "replication flowing again: the method runs again");
        });
    }

    @Test
    void replicaAcksFromMicroProfileConfigAndOffForOneMethod() {
        onContainer(Map.of("lockwarden.replica-acks", "1/150ms"), (container) -> {
            ReplicatedJobs jobs = container.select(ReplicatedJobs.class).get();
            jobs.plain();
            assertEquals(1, ReplicatedJobs.plainRuns.get());
            group.holdReplication();
            assertThrows(LockStoreException.class, jobs::plain, "the manager's default did not reach the builder");
            assertEquals(1, ReplicatedJobs.plainRuns.get());
            jobs.unacked(); // replicaAcks = "off" overrides the manager's default
            assertEquals(1, ReplicatedJobs.unackedRuns.get());
        });
    }

    /** A Weld container whose default LockManager is configured by MicroProfile Config only. */
    private static void onContainer(Map<String, String> more, Consumer<WeldContainer> test) {
        assertNull(System.getProperty("lockwarden.sentinel"), "no system property may configure this test");
        Map<String, String> settings = new HashMap<>(more);
        settings.put(
                "lockwarden.sentinel", RedisSentinelGroup.MASTER_NAME + "@" + String.join(",", group.sentinelUris()));
        settings.put("lockwarden.application", "sentinel-cdi");
        ReplicatedJobs.plainRuns.set(0);
        ReplicatedJobs.ackedRuns.set(0);
        ReplicatedJobs.unackedRuns.set(0);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(settings, "test-source", 500))
                .build();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.releaseConfig(resolver.getConfig(loader)); // one another test's container may have built
        resolver.registerConfig(config, loader);
        try (WeldContainer container = new Weld("sentinel-" + settings.hashCode())
                .disableDiscovery()
                .addBeanClasses(ReplicatedJobs.class)
                .addExtension(new LockedExtension())
                .initialize()) {
            test.accept(container);
        } finally {
            resolver.releaseConfig(config);
        }
    }
}
