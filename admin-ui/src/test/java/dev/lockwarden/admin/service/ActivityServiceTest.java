package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** AdminService.activity over a real redis-server: totals and per-minute series per application. */
class ActivityServiceTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void totalsAndOneSeriesEntryPerMinuteOfTheWindow() {
        try (LockManager m =
                LockManager.builder().redis(REDIS.uri()).application("svc-app").build()) {
            for (int i = 0; i < 4; i++) {
                m.acquire("svc:" + i, LockOptions.ttl(Duration.ofSeconds(10))).release();
            }
        }
        try (LockManager admin = LockManager.builder()
                .redis(REDIS.uri())
                .application("svc-admin")
                .build()) {
            AdminService service = new AdminService(admin.inspector(), 100);
            List<ApplicationActivity> rows = service.activity(15);
            assertEquals(
                    List.of("svc-app"),
                    rows.stream().map(ApplicationActivity::application).toList());
            ApplicationActivity a = rows.get(0);
            assertEquals(4, a.acquired());
            assertEquals(15, a.acquiredPerMinute().size());
            assertEquals(
                    4, a.acquiredPerMinute().stream().mapToLong(Long::longValue).sum());
            assertTrue(
                    a.acquiredPerMinute().get(14) == 4 || a.acquiredPerMinute().get(13) == 4, a.toString());

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> service.activity(61));
            assertTrue(e.getMessage().contains("1..60"), e.getMessage());
        }
    }
}
