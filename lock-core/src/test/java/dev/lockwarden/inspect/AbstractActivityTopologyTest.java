package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Activity counts of several applications are each read once: every cluster master, Redlock's first node. */
abstract class AbstractActivityTopologyTest {
    private static final int APPS = 6;

    protected abstract LockManager.Builder target(LockManager.Builder builder);

    @Test
    void everyApplicationsCountsAreListedOnceWithExactTotals() {
        Map<String, Long> expected = new TreeMap<>();
        for (int a = 0; a < APPS; a++) {
            String app = "topo-" + a;
            try (LockManager m = target(LockManager.builder()).application(app).build()) {
                for (int i = 0; i <= a; i++) {
                    m.acquire("topo:" + a + ":" + i, LockOptions.ttl(Duration.ofSeconds(10)))
                            .release();
                }
            } // close flushes
            expected.put(app, a + 1L);
        }
        try (LockManager reader =
                target(LockManager.builder()).application("topo-reader").build()) {
            List<ActivityCount> activity = reader.inspector().activity(Duration.ofMinutes(5));
            Map<String, Long> acquired = new TreeMap<>();
            activity.forEach(c -> acquired.merge(c.application(), c.acquired(), Long::sum));
            assertEquals(expected, acquired, activity.toString());
        }
    }
}
