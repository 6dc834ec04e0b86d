package dev.lockwarden.metrics;

import dev.lockwarden.LockSource;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * One {@code LockManager}'s lock counters per lock-name group (the name up to the first {@code ':'})
 * and source, exported over JMX (per group) and, when Micrometer is on the classpath, to its global
 * registry (per group and source, see {@link MicrometerBinding}). This is the only place lock events
 * are counted: the dashboard's activity flush reads its deltas from {@link #activityTotals()}.
 * Groups are capped ({@link MetricsConfig#maxGroups()}); further groups count as {@value #OTHER},
 * with one WARNING, so unbounded lock names cannot exhaust memory or the metrics backend.
 * <p>
 * Over 200 lines (a third of them Javadoc) because the series, their cap and their two views (the
 * MXBean totals and the activity totals) must read the same adders; {@link LockMeter} is the hot path's
 * handle on one series, resolved once per acquisition.
 */
public final class LockMetrics implements LockMetricsMXBean, AutoCloseable {
    /** The group that counts every group beyond the cap. */
    public static final String OTHER = "other";

    private static final LockSource[] SOURCES = LockSource.values();
    /** Index of the "unknown" source (force-release by name: the holder's source is not known here). */
    private static final int UNKNOWN = SOURCES.length;

    private static final System.Logger LOG = System.getLogger(LockMetrics.class.getName());

    /** What is counted; one adder per event kind. */
    public enum Event {
        /** An acquire or tryAcquire call. */
        ATTEMPT,
        /** A call got the lock. */
        ACQUIRED,
        /** A call found the lock busy for its whole wait budget. */
        BUSY,
        /** A call failed because Redis was unreachable or rejected it. */
        STORE_ERROR,
        /** A watchdog refresh succeeded. */
        REFRESH,
        /** A watchdog refresh failed (Redis error). */
        REFRESH_FAILURE,
        /** A handle lost its lock. */
        LOST,
        /** This manager's inspector force-released a lock. */
        FORCE_RELEASED
    }

    /** Publishes meters for each new group/source series; released when the manager closes. */
    interface Binding {
        void bind(LockMeter meter);

        void close();
    }

    private final Map<String, AtomicReferenceArray<LockMeter>> groups = new ConcurrentHashMap<>();

    /** A group and its meters by source (a group's row never changes once created). */
    private record LastGroup(String name, AtomicReferenceArray<LockMeter> row) {}

    /** The group the last {@link #meter} call used (a racy cache: any value is a correct one). */
    private volatile LastGroup lastGroup;
    /** New series are rare: created under this lock, so a binding sees each exactly once. */
    private final ReentrantLock creating = new ReentrantLock();

    private final AtomicBoolean capWarned = new AtomicBoolean();
    private final String application;
    private final MetricsConfig config;
    private final ObjectName objectName;
    private final Binding binding;
    private final LongSupplier watchdogBatches;

    /**
     * Counters registered over JMX (and Micrometer when present).
     *
     * @param application the application name (a JMX key property and Micrometer tag)
     * @param jvmId       this manager's JVM id (makes the JMX name unique)
     * @param config      the group cap and timer statistics
     * @param watchdogBatches the watchdog's refresh round trips so far
     */
    public LockMetrics(String application, String jvmId, MetricsConfig config, LongSupplier watchdogBatches) {
        this.watchdogBatches = watchdogBatches;
        this.application = application;
        this.config = config;
        this.objectName = register(application, jvmId);
        this.binding = micrometer(application, config, this);
    }

    /**
     * The Micrometer binding if Micrometer is on the classpath. The binding class is only named by
     * reflection, so without Micrometer nothing here ever links against it.
     */
    private static Binding micrometer(String application, MetricsConfig config, LockMetrics metrics) {
        ClassLoader loader = LockMetrics.class.getClassLoader();
        try {
            Class.forName("io.micrometer.core.instrument.Metrics", false, loader);
            return (Binding) Class.forName(LockMetrics.class.getPackageName() + ".MicrometerBinding", true, loader)
                    .getDeclaredConstructor(String.class, MetricsConfig.class, LockMetrics.class)
                    .newInstance(application, config, metrics);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /**
     * The series of {@code lockName}'s group and {@code source}, created on first use.
     *
     * @param lockName the lock's name
     * @param source   the entry point, or null if unknown
     * @return the series (the {@value #OTHER} group's beyond the cap)
     */
    public LockMeter meter(String lockName, LockSource source) {
        int colon = lockName.indexOf(':');
        int end = colon > 0 ? colon : lockName.length();
        int s = source == null ? UNKNOWN : source.ordinal();
        // the group of the previous call, if it is this one's: no substring and no map lookup per call
        LastGroup last = lastGroup;
        if (last != null && last.name.length() == end && lockName.startsWith(last.name)) {
            LockMeter m = last.row.get(s);
            if (m != null) {
                return m;
            }
        }
        String g = end == lockName.length() ? lockName : lockName.substring(0, end);
        AtomicReferenceArray<LockMeter> row = groups.get(g);
        if (row != null) {
            lastGroup = new LastGroup(g, row);
        }
        LockMeter m = row == null ? null : row.get(s);
        return m != null ? m : create(g, s);
    }

    /**
     * Counts one event in the series of {@code lockName}'s group and {@code source}.
     *
     * @param lockName the lock's name
     * @param source   the entry point, or null if unknown
     * @param e        what happened
     */
    public void count(String lockName, LockSource source, Event e) {
        meter(lockName, source).count(e);
    }

    private LockMeter create(String g, int s) {
        creating.lock();
        try {
            if (!groups.containsKey(g) && groups.size() >= config.maxGroups()) {
                if (capWarned.compareAndSet(false, true)) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "application '" + application + "' uses more than "
                                    + config.maxGroups()
                                    + " lock-name groups (the name up to the first ':'); further groups are"
                                    + " counted as '" + OTHER + "'. Name locks group:id (e.g. payment:TX-1), or raise "
                                    + MetricsConfig.MAX_GROUPS);
                }
                g = OTHER;
            }
            AtomicReferenceArray<LockMeter> row =
                    groups.computeIfAbsent(g, k -> new AtomicReferenceArray<>(UNKNOWN + 1));
            LockMeter m = row.get(s);
            if (m == null) {
                m = new LockMeter(
                        g, s == UNKNOWN ? "unknown" : SOURCES[s].name().toLowerCase());
                if (binding != null) {
                    try {
                        binding.bind(m);
                    } catch (RuntimeException | LinkageError e) {
                        LOG.log(System.Logger.Level.DEBUG, "Micrometer binding failed", e);
                    }
                }
                row.set(s, m);
            }
            return m;
        } finally {
            creating.unlock();
        }
    }

    /** One series of this manager, or null (read by the Micrometer functions). */
    LockMeter find(String group, String source) {
        AtomicReferenceArray<LockMeter> row = groups.get(group);
        if (row == null) {
            return null;
        }
        for (int i = 0; i < row.length(); i++) {
            LockMeter m = row.get(i);
            if (m != null && m.source().equals(source)) {
                return m;
            }
        }
        return null;
    }

    /** Every series of this manager. */
    Iterable<LockMeter> meters() {
        java.util.List<LockMeter> out = new java.util.ArrayList<>();
        for (AtomicReferenceArray<LockMeter> row : groups.values()) {
            for (int i = 0; i < row.length(); i++) {
                if (row.get(i) != null) {
                    out.add(row.get(i));
                }
            }
        }
        return out;
    }

    /** {@return the totals of acquired, busy and lost (in that order) over every group and source: the activity flush's source} */
    public long[] activityTotals() {
        long[] t = new long[3];
        for (LockMeter m : meters()) {
            t[0] += m.get(Event.ACQUIRED);
            t[1] += m.get(Event.BUSY);
            t[2] += m.get(Event.LOST);
        }
        return t;
    }

    /** {@return the group cap and timer statistics} */
    public MetricsConfig config() {
        return config;
    }

    @Override
    public Map<String, LockStats> getByGroup() {
        Map<String, long[]> sums = new TreeMap<>();
        for (LockMeter m : meters()) {
            add(sums.computeIfAbsent(m.group(), k -> new long[11]), m.values());
        }
        Map<String, LockStats> out = new TreeMap<>();
        sums.forEach((k, v) -> out.put(k, stats(v)));
        return out;
    }

    @Override
    public LockStats getTotal() {
        long[] sum = new long[11];
        for (LockMeter m : meters()) {
            add(sum, m.values());
        }
        return stats(sum);
    }

    private static void add(long[] sum, long[] v) {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += v[i];
        }
    }

    private static LockStats stats(long[] v) {
        return new LockStats(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]);
    }

    @Override
    public long getWatchdogBatches() {
        return watchdogBatches.getAsLong();
    }

    /** {@return the JMX name, or null if registration failed (e.g. no platform MBean server)} */
    public ObjectName objectName() {
        return objectName;
    }

    private ObjectName register(String application, String jvmId) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(
                    "dev.lockwarden:type=LockManager,application=" + ObjectName.quote(application) + ",id=" + jvmId);
            server.registerMBean(this, name);
            return name;
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "JMX registration failed", e);
            return null;
        }
    }

    /** Unregisters the MXBean and leaves Micrometer (its meters go when the application's last manager closes). */
    @Override
    public void close() {
        if (binding != null) {
            binding.close();
        }
        if (objectName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName);
            } catch (JMException | RuntimeException ignored) {
                // already gone
            }
        }
    }
}
