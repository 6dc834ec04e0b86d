package dev.lockwarden.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.config.Settings;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dashboard's activity counts are the manager's lock metrics, flushed: one count per event, the
 * same numbers in both views — across sources and groups beyond the cap — and nested (reentrant)
 * acquisitions in neither.
 */
class ActivityFromMetricsTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void activityFlushEqualsMetricsTotals() throws Exception {
        REDIS.flushAll();
        LockStats total;
        try (LockManager reader = LockManager.builder()
                .redis(REDIS.uri())
                .application("afm-reader")
                .shutdownHook(false)
                .build()) {
            try (LockManager m = LockManager.builder()
                    .redis(REDIS.uri())
                    .application("afm")
                    .shutdownHook(false)
                    .settings(new Settings(Map.of(MetricsConfig.MAX_GROUPS, "2")::get, Map.of()))
                    .build()) {
                LockOptions ttl = LockOptions.ttl(Duration.ofSeconds(10));
                LockHandle held = m.acquire(
                        "a:held", LockOptions.ttl(Duration.ofMillis(600)).autoRefresh(false));
                m.acquire("a:held", ttl).release(); // nested: no Redis call, counted nowhere
                for (int i = 0; i < 7; i++) {
                    m.acquire("g" + i + ":x", ttl.source(i % 2 == 0 ? LockSource.CDI : LockSource.AGENT, "M.m"))
                            .release();
                }
                try (LockManager other = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("afm-other")
                        .shutdownHook(false)
                        .build()) {
                    other.acquire("b:held", ttl);
                    for (int i = 0; i < 9; i++) {
                        m.tryAcquire("b:held", ttl);
                    }
                }
                Thread.sleep(900); // the 600 ms lock without refresh passes its validity
                held.isHeld();
                total = MxBeans.of("afm").getTotal();
                assertEquals(8, total.getAcquired());
                assertEquals(9, total.getBusy());
            } // close flushes
            long[] a = sum(reader.inspector().activity(Duration.ofMinutes(5)), "afm");
            assertEquals(total.getAcquired(), a[0], "acquired");
            assertEquals(total.getBusy(), a[1], "busy");
            assertEquals(total.getLost(), a[2], "lost");
        }
    }

    private static long[] sum(List<ActivityCount> counts, String app) {
        long[] t = new long[3];
        for (ActivityCount c : counts) {
            if (c.application().equals(app)) {
                t[0] += c.acquired();
                t[1] += c.busy();
                t[2] += c.lost();
            }
        }
        return t;
    }
}
