package dev.lockwarden.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.MBeanServer;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Counters are exported over JMX per name group and in total. */
class LockMetricsTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void countsAttemptsBusyHoldsRefreshesLossAndForceRelease() throws Exception {
        try (LockManager a = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("metrics-a")
                        .build();
                LockManager b = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("metrics-b")
                        .build()) {
            LockOptions opts = LockOptions.ttl(Duration.ofMillis(300));
            LockHandle h = a.acquire("payment:1", opts);
            a.acquire("payment:1", opts).release(); // reentrant: a nested handle, no Redis call
            assertThrows(LockNotAcquiredException.class, () -> b.acquire("payment:1", opts));
            Thread.sleep(400); // at least one watchdog refresh
            a.acquire("payment:2", opts).release();
            a.inspector().forceRelease("payment:1", "ops");
            // the loss is counted just after the handle turns lost, on the thread that learnt of it
            for (int i = 0; i < 50 && (h.isHeld() || heldNow("metrics-a") != 0); i++) {
                Thread.sleep(50);
            }

            LockStats s = MxBeans.of("metrics-a").getByGroup().get("payment");
            assertEquals(2, s.getAttempts()); // nested acquisitions are not attempts: no Redis call
            assertEquals(2, s.getAcquired());
            assertEquals(0, s.getHeldNow());
            assertTrue(s.getRefreshes() >= 1, s.toString());
            assertEquals(1, s.getLost());
            assertEquals(1, s.getForceReleased());
            assertEquals(1, MxBeans.of("metrics-b").getTotal().getBusy());

            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            CompositeData total = (CompositeData)
                    server.getAttribute(MxBeans.names("metrics-a").get(0), "Total");
            assertEquals(2L, total.get("acquired"));
            TabularData byGroup =
                    (TabularData) server.getAttribute(MxBeans.names("metrics-a").get(0), "ByGroup");
            assertNotNull(byGroup.get(new Object[] {"payment"}));
            assertTrue(
                    (Long) server.getAttribute(MxBeans.names("metrics-a").get(0), "WatchdogBatches") >= 1,
                    "the watchdog's refresh round trips");
            assertEquals(
                    0L, server.getAttribute(MxBeans.names("metrics-b").get(0), "WatchdogBatches"), "b held nothing");
        }
    }

    private static long heldNow(String application) {
        return MxBeans.of(application).getByGroup().get("payment").getHeldNow();
    }
}
