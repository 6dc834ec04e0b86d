package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.cdi.broken.ValidBean;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The default producer in plain Weld SE: reads {@code lockwarden.*}, is used by the interceptor, and
 * its {@code @Disposes} closes the manager at shutdown, which releases the locks it still holds.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DefaultProducerTest {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @BeforeEach
    void configure() {
        redis.flushAll();
        System.setProperty("lockwarden.redis", redis.uri());
        System.setProperty("lockwarden.application", "weld-se-app");
    }

    @AfterEach
    void unconfigure() {
        System.clearProperty("lockwarden.redis");
        System.clearProperty("lockwarden.application");
    }

    @Test
    void defaultManagerReadsSettingsIsUsedByTheInterceptorAndIsClosedAtShutdown() {
        try (LockManager other =
                LockManager.builder().redis(redis.uri()).application("other").build()) {
            WeldContainer container = new Weld("default-producer")
                    .disableDiscovery()
                    .addBeanClasses(ValidBean.class)
                    .addExtension(new LockedExtension())
                    .initialize();
            LockHandle leftOpen;
            try {
                LockManager locks = container.select(LockManager.class).get();
                assertEquals("weld-se-app", locks.application());
                ValidBean bean = container.select(ValidBean.class).get();

                assertEquals(1, bean.count("A"), "free: the body runs");
                try (LockHandle held = other.acquire("slot:A", LockOptions.ttl(Duration.ofSeconds(10)))) {
                    assertEquals(0, bean.count("A"), "busy: SKIP returns the primitive default");
                }
                leftOpen = locks.acquire("left-open", LockOptions.ttl(Duration.ofSeconds(30)));
                assertTrue(locks.inspector().get("left-open").isPresent());
            } finally {
                container.shutdown();
            }
            assertTrue(!leftOpen.isHeld(), "the disposer closed the manager");
            assertTrue(other.inspector().get("left-open").isEmpty(), "closing released the lock in Redis");
        }
    }
}
