package dev.lockwarden.metrics;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Per-group lock counters (see {@link LockStats}), exported over JMX. Groups are capped at
 * {@value #MAX_GROUPS}; further groups count under {@code "(other)"}, so unbounded lock names
 * cannot exhaust memory.
 */
public final class LockMetrics implements LockMetricsMXBean, AutoCloseable {
    static final int MAX_GROUPS = 500;
    private static final String OTHER = "(other)";

    private final Map<String, Counters> groups = new ConcurrentHashMap<>();
    private final ObjectName objectName;

    /** What is counted; one adder per event kind. */
    public enum Event { ATTEMPT, ACQUIRED, BUSY, STORE_ERROR, REFRESH, REFRESH_FAILURE, LOST, FORCE_RELEASED }

    private static final class Counters {
        final LongAdder[] events = new LongAdder[Event.values().length];
        final LongAdder waitMillis = new LongAdder();
        final LongAdder holdMillis = new LongAdder();
        final LongAdder held = new LongAdder();

        Counters() {
            for (int i = 0; i < events.length; i++) {
                events[i] = new LongAdder();
            }
        }

        LockStats snapshot() {
            return new LockStats(get(Event.ATTEMPT), get(Event.ACQUIRED), get(Event.BUSY), get(Event.STORE_ERROR),
                    waitMillis.sum(), holdMillis.sum(), held.sum(), get(Event.REFRESH), get(Event.REFRESH_FAILURE),
                    get(Event.LOST), get(Event.FORCE_RELEASED));
        }

        long get(Event e) {
            return events[e.ordinal()].sum();
        }
    }

    /** Told once about each new group (Micrometer registers its meters then). */
    interface GroupListener {
        void groupAdded(String group, LockMetrics metrics);
    }

    private final GroupListener listener;

    public LockMetrics(String application, String jvmId) {
        this.objectName = register(application, jvmId);
        this.listener = micrometer(application);
    }

    /**
     * The Micrometer binding if Micrometer is on the classpath. The binding class is only named by
     * reflection, so without Micrometer nothing here ever links against it.
     */
    private static GroupListener micrometer(String application) {
        ClassLoader loader = LockMetrics.class.getClassLoader();
        try {
            Class.forName("io.micrometer.core.instrument.Metrics", false, loader);
            return (GroupListener) Class.forName(LockMetrics.class.getPackageName() + ".MicrometerBinding", true, loader)
                    .getDeclaredConstructor(String.class).newInstance(application);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** One event counter of one group (0 if unknown). */
    long eventCount(String group, Event e) {
        Counters c = groups.get(group);
        return c == null ? 0 : c.get(e);
    }

    /** Counters of one group (zeros if unknown). */
    LockStats stats(String group) {
        Counters c = groups.get(group);
        return c == null ? new LockStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) : c.snapshot();
    }

    public void count(String lockName, Event e) {
        group(lockName).events[e.ordinal()].increment();
    }

    public void waited(String lockName, long millis) {
        group(lockName).waitMillis.add(millis);
    }

    public void acquired(String lockName) {
        Counters c = group(lockName);
        c.events[Event.ACQUIRED.ordinal()].increment();
        c.held.increment();
    }

    /** A held lock ended (released or lost) after {@code heldMillis}. */
    public void ended(String lockName, long heldMillis) {
        Counters c = group(lockName);
        c.held.decrement();
        c.holdMillis.add(heldMillis);
    }

    @Override
    public Map<String, LockStats> getByGroup() {
        Map<String, LockStats> out = new TreeMap<>();
        groups.forEach((k, v) -> out.put(k, v.snapshot()));
        return out;
    }

    @Override
    public LockStats getTotal() {
        long[] sum = new long[11];
        for (Counters c : groups.values()) {
            LockStats s = c.snapshot();
            long[] v = {s.getAttempts(), s.getAcquired(), s.getBusy(), s.getStoreErrors(), s.getWaitMillisTotal(),
                    s.getHoldMillisTotal(), s.getHeldNow(), s.getRefreshes(), s.getRefreshFailures(), s.getLost(),
                    s.getForceReleased()};
            for (int i = 0; i < sum.length; i++) {
                sum[i] += v[i];
            }
        }
        return new LockStats(sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], sum[7], sum[8], sum[9], sum[10]);
    }

    /** The JMX name, or null if registration failed (e.g. no platform MBean server). */
    public ObjectName objectName() {
        return objectName;
    }

    private Counters group(String lockName) {
        int colon = lockName.indexOf(':');
        String g = colon > 0 ? lockName.substring(0, colon) : lockName;
        Counters c = groups.get(g);
        if (c != null) {
            return c;
        }
        String key = groups.size() >= MAX_GROUPS ? OTHER : g;
        boolean[] added = new boolean[1];
        c = groups.computeIfAbsent(key, k -> {
            added[0] = true;
            return new Counters();
        });
        if (added[0] && listener != null) {
            try {
                listener.groupAdded(key, this);
            } catch (RuntimeException | LinkageError e) {
                System.getLogger(LockMetrics.class.getName()).log(System.Logger.Level.DEBUG, "Micrometer binding failed", e);
            }
        }
        return c;
    }

    private ObjectName register(String application, String jvmId) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("dev.lockwarden:type=LockManager,application=" + ObjectName.quote(application)
                    + ",id=" + jvmId);
            server.registerMBean(this, name);
            return name;
        } catch (JMException | RuntimeException e) {
            System.getLogger(LockMetrics.class.getName()).log(System.Logger.Level.DEBUG, "JMX registration failed", e);
            return null;
        }
    }

    @Override
    public void close() {
        if (objectName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName);
            } catch (JMException | RuntimeException ignored) {
                // already gone
            }
        }
    }
}
