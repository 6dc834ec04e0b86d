package dev.lockwarden.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Publishes lock metrics to Micrometer's global registry (which Spring Boot and most frameworks feed
 * into theirs), tagged {@code application}, {@code group} and {@code source}. {@link LockMetrics}
 * creates it only after checking that Micrometer is on the classpath.
 *
 * <p>Several managers of one application share one set of meters ({@link Shared}): a meter id can be
 * registered only once, so each counter sums every live manager of the application plus what closed
 * ones counted (it never goes down), the held gauge sums the live managers, and the wait/hold timers
 * are one timer each that every manager records into. When the application's last manager closes its
 * meters are removed, so nothing is left reading a closed manager (no NaN, no stale gauge).
 */
final class MicrometerBinding implements LockMetrics.Binding {
    /** One meter set per registry and application; guarded by {@link #LOCK}. */
    private static final Map<Key, Shared> SHARED = new HashMap<>();

    private static final ReentrantLock LOCK = new ReentrantLock();

    private record Key(MeterRegistry registry, String application) {}

    private final Key key;
    private final Shared shared;
    private final LockMetrics metrics;

    MicrometerBinding(String application, MetricsConfig config, LockMetrics metrics) {
        this(Metrics.globalRegistry, application, config, metrics);
    }

    MicrometerBinding(MeterRegistry registry, String application, MetricsConfig config, LockMetrics metrics) {
        this.key = new Key(registry, application);
        this.metrics = metrics;
        LOCK.lock();
        try {
            // the first manager of an application decides its timers' percentiles (documented)
            this.shared = SHARED.computeIfAbsent(key, k -> new Shared(registry, application, config));
            shared.live.add(metrics);
        } finally {
            LOCK.unlock();
        }
    }

    @Override
    public void bind(LockMeter m) {
        LOCK.lock();
        try {
            Timer[] timers = shared.series(m.group(), m.source());
            m.timers(
                    nanos -> timers[0].record(nanos, TimeUnit.NANOSECONDS),
                    nanos -> timers[1].record(nanos, TimeUnit.NANOSECONDS));
        } finally {
            LOCK.unlock();
        }
    }

    @Override
    public void close() {
        LOCK.lock();
        try {
            if (!shared.live.contains(metrics)) {
                return;
            }
            shared.retire(metrics);
            if (shared.live.isEmpty()) {
                SHARED.remove(key);
                shared.removeMeters();
            }
        } finally {
            LOCK.unlock();
        }
    }

    /** The meters of one application on one registry. */
    private static final class Shared {
        final MeterRegistry registry;
        final String application;
        final MetricsConfig config;
        final List<LockMetrics> live = new CopyOnWriteArrayList<>();
        /** Per series ("group\0source"): event counts of managers already closed. */
        final Map<String, long[]> retired = new HashMap<>();

        final Map<String, Timer[]> timers = new HashMap<>();
        final List<Meter> registered = new ArrayList<>();

        Shared(MeterRegistry registry, String application, MetricsConfig config) {
            this.registry = registry;
            this.application = application;
            this.config = config;
        }

        /** The series' timers, registering its meters the first time any manager of the application sees it. */
        Timer[] series(String group, String source) {
            String id = group + '\0' + source;
            Timer[] t = timers.get(id);
            if (t != null) {
                return t;
            }
            Tags tags = Tags.of("application", application, "group", group, "source", source);
            for (LockMetrics.Event e : LockMetrics.Event.values()) {
                registered.add(FunctionCounter.builder("lockwarden.lock.events", this, s -> s.count(group, source, e))
                        .tags(tags.and("event", e.name().toLowerCase()))
                        .description("lock calls and outcomes")
                        .register(registry));
            }
            registered.add(Gauge.builder("lockwarden.lock.held", this, s -> s.held(group, source))
                    .tags(tags)
                    .description("locks held now")
                    .strongReference(true)
                    .register(registry));
            t = new Timer[] {
                timer("lockwarden.lock.wait", "time spent in acquire/tryAcquire, any outcome", tags),
                timer("lockwarden.lock.hold", "time from acquisition to release or loss", tags)
            };
            timers.put(id, t);
            return t;
        }

        private Timer timer(String name, String description, Tags tags) {
            double[] pct = config.percentiles();
            Timer t = Timer.builder(name)
                    .tags(tags)
                    .description(description)
                    .publishPercentiles(pct.length == 0 ? null : pct)
                    .publishPercentileHistogram(config.histogram())
                    .register(registry);
            registered.add(t);
            return t;
        }

        double count(String group, String source, LockMetrics.Event e) {
            LOCK.lock(); // consistent with retire(): a closing manager is counted exactly once
            try {
                long[] r = retired.get(group + '\0' + source);
                long n = r == null ? 0 : r[e.ordinal()];
                for (LockMetrics m : live) {
                    LockMeter s = m.find(group, source);
                    n += s == null ? 0 : s.get(e);
                }
                return n;
            } finally {
                LOCK.unlock();
            }
        }

        double held(String group, String source) {
            long n = 0;
            for (LockMetrics m : live) {
                LockMeter s = m.find(group, source);
                n += s == null ? 0 : s.heldNow();
            }
            return n;
        }

        void retire(LockMetrics m) {
            for (LockMeter s : m.meters()) {
                long[] r = retired.computeIfAbsent(
                        s.group() + '\0' + s.source(), k -> new long[LockMetrics.Event.values().length]);
                for (LockMetrics.Event e : LockMetrics.Event.values()) {
                    r[e.ordinal()] += s.get(e);
                }
            }
            live.remove(m);
        }

        void removeMeters() {
            for (Meter m : registered) {
                registry.remove(m);
            }
            registered.clear();
        }
    }
}
