package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.broken.ValidBean;
import dev.lockwarden.testing.RedisServerExtension;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
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
 * With MicroProfile Config on the class path (SmallRye Config 3.x here), the default producer reads
 * {@code lockwarden.*} from it: a config source that is neither a system property nor the
 * environment decides the Redis URI, the application name and the default TTL.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MicroProfileConfigTest {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @Test
    void defaultProducerReadsMicroProfileConfig() {
        assertNull(System.getProperty("lockwarden.redis"), "no system property may configure this test");
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(
                        Map.of(
                                "lockwarden.redis", redis.uri(),
                                "lockwarden.application", "mp-config-app",
                                "lockwarden.ttl", "45s"),
                        "test-source",
                        500))
                .build();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.releaseConfig(resolver.getConfig(loader)); // one another test's container may have built
        resolver.registerConfig(config, loader);
        try (WeldContainer container = new Weld("mp-config")
                .disableDiscovery()
                .addBeanClasses(ValidBean.class)
                .addExtension(new LockedExtension())
                .initialize()) {
            LockManager locks = container.select(LockManager.class).get();
            assertEquals("mp-config-app", locks.application());
            assertEquals(
                    java.time.Duration.ofSeconds(45), locks.defaultOptions().ttl());
            assertEquals(
                    1,
                    container.select(ValidBean.class).get().count("MP"),
                    "the interceptor locks on the configured Redis");
            try (var held = locks.acquire("probe", locks.defaultOptions())) {
                LockInfo info = locks.inspector().get("probe").orElseThrow();
                assertEquals("mp-config-app", info.holder().application());
            }
        } finally {
            resolver.releaseConfig(config);
        }
    }
}
