package dev.lockwarden.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;

/**
 * Publishes each lock-name group's counters to Micrometer's global registry (which Spring Boot and
 * most frameworks feed into theirs). {@link LockMetrics} creates it only after checking that Micrometer
 * is on the classpath; lock-core does not depend on it otherwise.
 */
final class MicrometerBinding implements LockMetrics.GroupListener {
    private final MeterRegistry registry = Metrics.globalRegistry;
    private final String application;

    MicrometerBinding(String application) {
        this.application = application;
    }

    @Override
    public void groupAdded(String group, LockMetrics metrics) {
        Tags tags = Tags.of("application", application, "group", group);
        for (LockMetrics.Event e : LockMetrics.Event.values()) {
            FunctionCounter.builder("lockwarden.lock.events", metrics, m -> m.eventCount(group, e))
                    .tags(tags.and("event", e.name().toLowerCase()))
                    .description("lock calls and outcomes per lock-name group")
                    .register(registry);
        }
        counter("lockwarden.lock.wait", group, tags, metrics, LockStats::getWaitMillisTotal, "time spent in acquire, ms");
        counter("lockwarden.lock.hold", group, tags, metrics, LockStats::getHoldMillisTotal, "time locks were held, ms");
        Gauge.builder("lockwarden.lock.held", metrics, m -> m.stats(group).getHeldNow())
                .tags(tags).description("locks held now by this manager").register(registry);
    }

    private void counter(String name, String group, Tags tags, LockMetrics metrics,
                         ToDoubleFunction<LockStats> value, String description) {
        FunctionCounter.builder(name, metrics, m -> value.applyAsDouble(m.stats(group)))
                .tags(tags).baseUnit("milliseconds").description(description).register(registry);
    }
}
