package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/** The Activity view in real Chromium: per-application totals and sparklines, refreshed live. */
class ActivityBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(30));

    private static Dashboard dash;

    @BeforeAll
    static void start() throws Exception {
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.users("viewer:VIEWER"));
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash);
    }

    @Test
    void listsEachApplicationWithItsCountsAndPicksUpNewActivityLive() throws Exception {
        runClient("shop", 3, 7); // closing flushes its counts
        dash.browser.loginAs("viewer");
        dash.browser.waitFor(By.id("locks"));
        List<String> c = dash.browser.openView("activity", "shop");
        int at = c.indexOf("shop");
        assertEquals(List.of("3", "7", "0", "0"), c.subList(at + 1, at + 5), c.toString());
        assertTrue(
                c.get(at + 5).matches("▁*█▁?") && c.get(at + 5).length() == 15,
                "acquired sparkline '" + c.get(at + 5) + "'");
        assertTrue(c.get(at + 6).matches("▁*█▁?"), "busy sparkline '" + c.get(at + 6) + "'");
        assertTrue(!c.contains("lockwarden-admin"), "the dashboard's own client took no locks: " + c);

        runClient("warehouse", 2, 0); // while the view is open: it shows up without a reload
        List<String> w = dash.browser.waitCells("warehouse");
        assertEquals("2", w.get(w.indexOf("warehouse") + 1), w.toString());
        dash.browser.screenshot(java.nio.file.Path.of("target", "screenshots", "activity.png"));
    }

    /** A client of {@code app} that acquires {@code acquired} locks and meets {@code busy} busy answers. */
    private static void runClient(String app, int acquired, int busy) {
        // held by no client of ours, so only this one counts: as acquire.lua writes a lock
        REDIS.node(0).command("SET", "lock:{activity:" + app + "}", "tok-other", "PX", "30000");
        try (LockManager m =
                LockManager.builder().redis(REDIS.uri()).application(app).build()) {
            for (int i = 0; i < acquired; i++) {
                m.acquire("activity:" + app + ":" + i, OPTS).release();
            }
            for (int i = 0; i < busy; i++) {
                assertTrue(m.tryAcquire("activity:" + app, OPTS).isEmpty());
            }
        }
    }
}
