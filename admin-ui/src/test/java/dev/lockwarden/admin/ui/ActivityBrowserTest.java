package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.testing.RedisServerExtension;

/** The Activity view in real Chromium: per-application totals and sparklines, refreshed live. */
class ActivityBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);
    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(30));

    private static LockManager admin;
    private static AdminServer server;
    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        admin = LockManager.builder().redis(REDIS.uri()).application("lockwarden-admin").build();
        UserDirectory users = UserDirectory.of(Map.of("viewer", "VIEWER:" + PasswordHasher.hash("viewer-pw".toCharArray(), 10_000)));
        server = AdminServer.start(new AdminConfig(InetAddress.getLoopbackAddress(), 0, 50, users), admin.inspector());
        browser = new Browser(server.uri().toString());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {browser, server, admin}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // keep closing the rest
            }
        }
    }

    @Test
    void listsEachApplicationWithItsCountsAndPicksUpNewActivityLive() throws Exception {
        runClient("shop", 3, 7); // closing flushes its counts
        browser.login("viewer", "viewer-pw");
        browser.waitFor(By.id("locks"));
        browser.driver.findElement(By.id("nav-activity")).click();
        browser.waitFor(By.id("activity"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> cells().contains("shop"));
        List<String> c = cells();
        int at = c.indexOf("shop");
        assertEquals(List.of("3", "7", "0", "0"), c.subList(at + 1, at + 5), c.toString());
        assertTrue(c.get(at + 5).matches("▁*█▁?") && c.get(at + 5).length() == 15, "acquired sparkline '" + c.get(at + 5) + "'");
        assertTrue(c.get(at + 6).matches("▁*█▁?"), "busy sparkline '" + c.get(at + 6) + "'");
        assertTrue(!c.contains("lockwarden-admin"), "the dashboard's own client took no locks: " + c);

        runClient("warehouse", 2, 0); // while the view is open: it shows up without a reload
        new WebDriverWait(browser.driver, Duration.ofSeconds(15)).until(d -> cells().contains("warehouse"));
        List<String> w = cells();
        assertEquals("2", w.get(w.indexOf("warehouse") + 1), w.toString());
        browser.screenshot(java.nio.file.Path.of("target", "screenshots", "activity.png"));
    }

    /** A client of {@code app} that acquires {@code acquired} locks and meets {@code busy} busy answers. */
    private static void runClient(String app, int acquired, int busy) {
        // held by no client of ours, so only this one counts: as acquire.lua writes a lock
        REDIS.node(0).command("SET", "lock:{activity:" + app + "}", "tok-other", "PX", "30000");
        try (LockManager m = LockManager.builder().redis(REDIS.uri()).application(app).build()) {
            for (int i = 0; i < acquired; i++) {
                m.acquire("activity:" + app + ":" + i, OPTS).release();
            }
            for (int i = 0; i < busy; i++) {
                assertTrue(m.tryAcquire("activity:" + app, OPTS).isEmpty());
            }
        }
    }

    private static List<String> cells() {
        return browser.driver.findElements(By.cssSelector("vaadin-grid-cell-content")).stream().map(WebElement::getText).toList();
    }
}
