package dev.lockwarden.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMX;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** A manager's counters as JMX shows them: its MXBean, found by the application's name. */
final class MxBeans {
    private MxBeans() {}

    /** The names of the MXBeans of {@code application}'s open managers, sorted. */
    static List<ObjectName> names(String application) {
        try {
            ObjectName pattern = new ObjectName(
                    "dev.lockwarden:type=LockManager,application=" + ObjectName.quote(application) + ",*");
            List<ObjectName> names =
                    new ArrayList<>(ManagementFactory.getPlatformMBeanServer().queryNames(pattern, null));
            names.sort(null);
            return names;
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The MXBean of {@code application}'s one open manager. */
    static LockMetricsMXBean of(String application) {
        List<ObjectName> names = names(application);
        assertEquals(1, names.size(), "managers of " + application + ": " + names);
        return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(), names.get(0), LockMetricsMXBean.class);
    }
}
