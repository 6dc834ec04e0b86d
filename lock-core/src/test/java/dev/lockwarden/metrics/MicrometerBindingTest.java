package dev.lockwarden.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.config.Settings;
import dev.lockwarden.testing.RedisServerExtension;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With Micrometer on the classpath, lock metrics show up in its global registry: tagged application,
 * group and source; wait/hold timers with percentiles; several managers of one application counted
 * together; nothing left reading NaN after close; a cap on distinct groups. Real SimpleMeterRegistry,
 * real redis-server.
 */
class MicrometerBindingTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions TTL = LockOptions.ttl(Duration.ofSeconds(10));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void addRegistry() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void removeRegistry() {
        Metrics.removeRegistry(registry);
    }

    private LockManager manager(String app, Map<String, String> props) {
        return LockManager.builder()
                .redis(REDIS.uri())
                .application(app)
                .shutdownHook(false)
                .settings(new Settings(props::get, Map.of()))
                .build();
    }

    private double events(String app, String group, String source, String event) {
        return registry.get("lockwarden.lock.events")
                .tags("application", app, "group", group, "source", source, "event", event)
                .functionCounter()
                .count();
    }

    @Test
    void tagsApplicationGroupSourceAndTimersWithPercentiles() {
        try (LockManager locks = manager("m-tags", Map.of())) {
            LockHandle h = locks.acquire("invoice:1", TTL);
            locks.tryAcquire("invoice:2", TTL.source(LockSource.CDI, "Billing.pay"))
                    .orElseThrow()
                    .release();
            assertEquals(
                    1.0,
                    registry.get("lockwarden.lock.held")
                            .tags("application", "m-tags", "group", "invoice", "source", "api")
                            .gauge()
                            .value());
            h.release();
            assertEquals(1.0, events("m-tags", "invoice", "api", "acquired"));
            assertEquals(1.0, events("m-tags", "invoice", "cdi", "acquired"));
            assertEquals(0.0, events("m-tags", "invoice", "cdi", "busy"));
            assertEquals(
                    0.0,
                    registry.get("lockwarden.lock.held")
                            .tags("application", "m-tags", "source", "api")
                            .gauge()
                            .value());

            Timer wait = registry.get("lockwarden.lock.wait")
                    .tags("application", "m-tags", "group", "invoice", "source", "api")
                    .timer();
            Timer hold = registry.get("lockwarden.lock.hold")
                    .tags("application", "m-tags", "group", "invoice", "source", "cdi")
                    .timer();
            assertEquals(1, wait.count());
            assertEquals(1, hold.count());
            assertTrue(wait.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) > 0, "an acquire takes a round trip");
            assertEquals(List.of(0.5, 0.95, 0.99), percentiles(wait), "default percentiles");
            // Micrometer publishes each percentile as its own gauge, e.g. for Prometheus
            assertFalse(registry.find("lockwarden.lock.wait.percentile")
                    .tags("application", "m-tags", "phi", "0.99")
                    .gauges()
                    .isEmpty());
        }
    }

    private static List<Double> percentiles(Timer t) {
        return Arrays.stream(t.takeSnapshot().percentileValues())
                .map(ValueAtPercentile::percentile)
                .toList();
    }

    @Test
    void percentilesAndHistogramAreSettings() {
        // what the registry is asked for (a SimpleMeterRegistry does not expose histogram buckets; Prometheus would)
        Map<String, Boolean> histogramAsked = new java.util.concurrent.ConcurrentHashMap<>();
        registry.config().meterFilter(new io.micrometer.core.instrument.config.MeterFilter() {
            @Override
            public io.micrometer.core.instrument.distribution.DistributionStatisticConfig configure(
                    Meter.Id id, io.micrometer.core.instrument.distribution.DistributionStatisticConfig config) {
                if (id.getName().equals("lockwarden.lock.wait")) {
                    histogramAsked.put(id.getTag("application"), Boolean.TRUE.equals(config.isPercentileHistogram()));
                }
                return config;
            }
        });
        try (LockManager locks =
                manager("m-pct", Map.of(MetricsConfig.PERCENTILES, "0.9", MetricsConfig.HISTOGRAM, "true"))) {
            locks.acquire("report:1", TTL).release();
            Timer wait = registry.get("lockwarden.lock.wait")
                    .tags("application", "m-pct")
                    .timer();
            assertEquals(List.of(0.9), percentiles(wait));
            assertEquals(true, histogramAsked.get("m-pct"), "percentile histogram requested");
        }
        try (LockManager locks = manager("m-nopct", Map.of(MetricsConfig.PERCENTILES, "none"))) {
            locks.acquire("report:1", TTL).release();
            Timer wait = registry.get("lockwarden.lock.wait")
                    .tags("application", "m-nopct")
                    .timer();
            assertEquals(List.of(), percentiles(wait));
            assertEquals(false, histogramAsked.get("m-nopct"), "no histogram by default");
        }
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class, () -> manager("m-bad", Map.of(MetricsConfig.PERCENTILES, "95")));
        assertTrue(bad.getMessage().contains("lockwarden.metrics.percentiles"), bad.getMessage());
        bad = assertThrows(
                IllegalArgumentException.class, () -> manager("m-bad", Map.of(MetricsConfig.MAX_GROUPS, "0")));
        assertTrue(bad.getMessage().contains("lockwarden.metrics.max-groups"), bad.getMessage());
    }

    @Test
    void severalManagersOfOneApplicationAllCountAndCloseLeavesNoNaN() {
        LockManager a = manager("m-shared", Map.of());
        LockManager b = manager("m-shared", Map.of());
        LockHandle ha = a.acquire("order:1", TTL);
        LockHandle hb = b.acquire("order:2", TTL);
        assertThrows(LockNotAcquiredException.class, () -> b.acquire("order:1", TTL));
        Gauge held = registry.get("lockwarden.lock.held")
                .tags("application", "m-shared", "group", "order")
                .gauge();
        assertEquals(2.0, held.value(), "both managers' holds");
        assertEquals(2.0, events("m-shared", "order", "api", "acquired"), "both managers counted, neither twice");
        assertEquals(3.0, events("m-shared", "order", "api", "attempt"));
        assertEquals(1.0, events("m-shared", "order", "api", "busy"));
        assertEquals(
                1,
                registry.find("lockwarden.lock.held")
                        .tags("application", "m-shared")
                        .gauges()
                        .size(),
                "one series, no clash");
        Timer wait = registry.get("lockwarden.lock.wait")
                .tags("application", "m-shared")
                .timer();
        assertEquals(3, wait.count());
        ha.release();
        hb.release();
        assertEquals(0.0, held.value());

        a.close(); // b lives on: its meters stay and a's counts are not lost
        assertEquals(
                2.0, events("m-shared", "order", "api", "acquired"), "a closed manager's counts stay in the counter");
        b.acquire("order:3", TTL).release();
        assertEquals(3.0, events("m-shared", "order", "api", "acquired"));
        assertEquals(4, wait.count());
        assertNoNaN("m-shared");

        b.close(); // the application's last manager: its meters are removed
        System.gc();
        assertTrue(
                registry.find("lockwarden.lock.events")
                        .tags("application", "m-shared")
                        .meters()
                        .isEmpty(),
                registry.getMetersAsString());
        assertTrue(registry.find("lockwarden.lock.held")
                .tags("application", "m-shared")
                .meters()
                .isEmpty());
        assertTrue(registry.find("lockwarden.lock.wait")
                .tags("application", "m-shared")
                .meters()
                .isEmpty());
        assertEquals(0.0, held.value(), "a gauge someone kept reads 0, not NaN");
        assertNoNaN(null);
    }

    private void assertNoNaN(String app) {
        for (Meter m : registry.getMeters()) {
            if (!m.getId().getName().startsWith("lockwarden.")
                    || (app != null && !app.equals(m.getId().getTag("application")))) {
                continue;
            }
            for (Measurement x : m.measure()) {
                assertFalse(Double.isNaN(x.getValue()), m.getId() + " " + x);
            }
        }
    }

    @Test
    void distinctGroupsAreCappedWithOneWarning() {
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel() == Level.WARNING && r.getLoggerName().equals(LockMetrics.class.getName())) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger.getLogger("dev.lockwarden").addHandler(h);
        try (LockManager locks = manager("m-cap", Map.of(MetricsConfig.MAX_GROUPS, "3"))) {
            for (int i = 0; i < 6; i++) {
                locks.acquire("g" + i + ":x", TTL).release();
            }
            Set<String> groups = registry.find("lockwarden.lock.events").tags("application", "m-cap").meters().stream()
                    .map(m -> m.getId().getTag("group"))
                    .collect(Collectors.toSet());
            assertEquals(Set.of("g0", "g1", "g2", "other"), groups);
            assertEquals(3.0, events("m-cap", "other", "api", "acquired"), "g3..g5 count under 'other'");
            assertEquals(1, warnings.size(), "one WARNING, not one per group");
            assertTrue(
                    warnings.get(0).getMessage().contains("lockwarden.metrics.max-groups"),
                    warnings.get(0).getMessage());
            assertEquals(6, MxBeans.of("m-cap").getTotal().getAcquired());
        } finally {
            Logger.getLogger("dev.lockwarden").removeHandler(h);
        }
    }

    @Test
    void docsMetricsTableMatchesTheRegistry() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "metrics.md"));
        try (LockManager locks = manager("m-doc", Map.of())) {
            locks.acquire("doc:1", TTL).release();
            Map<String, String> typeOf = new java.util.TreeMap<>();
            Map<String, Set<String>> tagsOf = new java.util.TreeMap<>();
            for (Meter m : registry.getMeters()) {
                if (m.getId().getName().startsWith("lockwarden.")
                        && "m-doc".equals(m.getId().getTag("application"))) {
                    typeOf.put(m.getId().getName(), m.getId().getType().name());
                    tagsOf.computeIfAbsent(m.getId().getName(), k -> new java.util.TreeSet<>())
                            .addAll(m.getId().getTags().stream()
                                    .map(io.micrometer.core.instrument.Tag::getKey)
                                    .toList());
                }
            }
            assertEquals(
                    Set.of(
                            "lockwarden.lock.events",
                            "lockwarden.lock.held",
                            "lockwarden.lock.wait",
                            "lockwarden.lock.hold",
                            "lockwarden.lock.wait.percentile",
                            "lockwarden.lock.hold.percentile"),
                    typeOf.keySet());
            for (String name : typeOf.keySet()) {
                java.util.regex.Matcher row = java.util.regex.Pattern.compile(
                                "^\\|[^|\\n]*`" + java.util.regex.Pattern.quote(name)
                                        + "`[^|\\n]*\\| ([A-Za-z]+)[^|]*\\| ([^|]+)\\|",
                                java.util.regex.Pattern.MULTILINE)
                        .matcher(doc);
                assertTrue(row.find(), name + " missing from docs/metrics.md");
                String docType = row.group(1).toUpperCase();
                String type = typeOf.get(name);
                assertTrue(
                        docType.equals(type) || (docType.equals("FUNCTIONCOUNTER") && type.equals("COUNTER")),
                        name + ": doc says " + docType + ", registry has " + type);
                String docTags = row.group(2).contains("timer's tags")
                        ? "`application`, `group`, `source` " + row.group(2)
                        : row.group(2);
                for (String tag : tagsOf.get(name)) {
                    assertTrue(
                            docTags.contains("`" + tag + "`"),
                            name + " tag " + tag + " not in its doc row: " + row.group(2));
                }
            }
            for (LockMetrics.Event e : LockMetrics.Event.values()) {
                assertTrue(doc.contains("`" + e.name().toLowerCase() + "`"), "event " + e + " not documented");
            }
        }
    }

    @Test
    void secondManagerOfAnApplicationHasItsOwnMxBean() throws Exception {
        try (LockManager a = manager("m-jmx", Map.of());
                LockManager b = manager("m-jmx", Map.of())) {
            java.util.List<javax.management.ObjectName> names = MxBeans.names("m-jmx");
            assertEquals(2, names.size(), "each manager its own id: " + names);
            a.acquire("x:1", TTL).release();
            javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            java.util.List<Long> acquired = new java.util.ArrayList<>();
            for (javax.management.ObjectName n : names) {
                acquired.add((Long)
                        ((javax.management.openmbean.CompositeData) server.getAttribute(n, "Total")).get("acquired"));
            }
            acquired.sort(null);
            assertEquals(java.util.List.of(0L, 1L), acquired, "a's acquisition counted in a's MXBean only");
        }
    }

    @Test
    void defaultCapIsDocumentedValue() {
        assertEquals(100, MetricsConfig.defaults().maxGroups());
        assertEquals(100, MetricsConfig.from(new Settings(k -> null, Map.of())).maxGroups());
    }
}
