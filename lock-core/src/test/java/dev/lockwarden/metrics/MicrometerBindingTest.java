package dev.lockwarden.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** With Micrometer on the classpath, lock counters show up in its global registry. */
class MicrometerBindingTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void addRegistry() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void removeRegistry() {
        Metrics.removeRegistry(registry);
    }

    @Test
    void countersAndHeldGaugePerGroup() {
        try (LockManager locks = LockManager.builder().redis(REDIS.uri()).application("metered").build()) {
            LockHandle h = locks.acquire("invoice:1", LockOptions.ttl(Duration.ofSeconds(10)));
            locks.tryAcquire("invoice:2", LockOptions.ttl(Duration.ofSeconds(10))).orElseThrow().release();
            assertEquals(1.0, registry.get("lockwarden.lock.held").tags("application", "metered", "group", "invoice").gauge().value());
            h.release();
            assertEquals(2.0, registry.get("lockwarden.lock.events").tags("group", "invoice", "event", "acquired")
                    .functionCounter().count());
            assertEquals(0.0, registry.get("lockwarden.lock.held").tags("group", "invoice").gauge().value());
            assertNotNull(registry.get("lockwarden.lock.hold").tags("group", "invoice").functionCounter());
        }
    }
}
