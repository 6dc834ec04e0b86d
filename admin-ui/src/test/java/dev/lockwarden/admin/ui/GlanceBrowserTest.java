package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What an on-call operator sees at once, at 1280 px: the Locks grid's name, holder, TTL and fence
 * without sideways scrolling, and the health strip on every page, each number a link.
 */
class GlanceBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static LockManager billing;
    private static Dashboard dash;

    @BeforeAll
    static void start() throws Exception {
        billing =
                LockManager.builder().redis(REDIS.uri()).application("billing").build();
        billing.acquire(
                "glance:payments:settle-batch-2026-12",
                LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
        billing.acquire("glance:ship", LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
        // a lock whose holder JVM died: its heartbeat key is gone (written as acquire.lua writes it)
        REDIS.node(0).command("SET", "lock:{glance:orphan}", "tok-dead", "PX", "600000");
        REDIS.node(0).command("SET", "lock:{glance:orphan}:fence", "7");
        REDIS.node(0)
                .command(
                        "HSET",
                        "lock:{glance:orphan}:info",
                        "fence",
                        "7",
                        "app",
                        "ghost",
                        "host",
                        "gone-host",
                        "pid",
                        "4242",
                        "jvm",
                        "dead0000glance",
                        "thread",
                        "main",
                        "acquiredAt",
                        Long.toString(System.currentTimeMillis() - 60_000));
        REDIS.node(0).command("PEXPIRE", "lock:{glance:orphan}:info", "600000");
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.viewerAndOperator());
        dash.browser.driver.manage().window().setSize(new Dimension(1280, 900));
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash, billing);
    }

    @Test
    void theGridFitsAt1280AndTheHealthStripIsOnEveryPageWithLinks() throws Exception {
        dash.browser.loginAs("operator");
        String pay = "glance:payments:settle-batch-2026-12";
        dash.browser.waitFor(By.cssSelector("span.ttl[data-lock='" + pay + "']"));
        waitText("health-held", "3 locks held");
        assertEquals("1 orphaned", text("health-orphaned"));
        assertEquals("2 clients alive", text("health-clients"), "billing and the dashboard's own manager");
        assertTrue(text("health-deployment").startsWith("single node redis://127.0.0.1:"), text("health-deployment"));
        assertTrue(text("health-rtt").matches("round trip \\d+\\.\\d ms"), text("health-rtt"));
        assertEquals("0 force-released in 15 min", text("health-forced"));
        assertEquals("0 lost in 15 min", text("health-lost"));

        @SuppressWarnings("unchecked")
        List<Number> widths = (List<Number>) dash.browser.driver.executeScript(
                "const t = document.querySelector('#locks').shadowRoot.querySelector('#table');"
                        + "return [t.scrollWidth, t.clientWidth, window.innerWidth];");
        assertTrue(widths.get(0).longValue() <= widths.get(1).longValue(), "no sideways scrolling: " + widths);
        for (String column : new String[] {"lock-name", "holder-state", "ttl", "fence"}) {
            Number right = (Number) dash.browser.driver.executeScript(
                    "return document.querySelector(arguments[0])" + ".getBoundingClientRect().right;",
                    "[class='" + column + "'][data-lock='" + pay + "']");
            assertTrue(
                    right.doubleValue() <= widths.get(2).doubleValue(),
                    column + " ends at " + right + " of " + widths.get(2));
        }
        By ttl = By.cssSelector("span.ttl[data-lock='" + pay + "']");
        String first = dash.browser.driver.findElement(ttl).getText();
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(5))
                .ignoring(StaleElementReferenceException.class)
                .until(d -> !d.findElement(ttl).getText().equals(first));
        dash.browser.screenshot(Path.of("..", "docs", "dashboard.png"));

        dash.admin.inspector().forceRelease("glance:ship", "alice");
        waitText("health-forced", "1 force-released in 15 min");
        waitText("health-held", "2 locks held");

        dash.browser.driver.findElement(By.cssSelector("#filter-prefix input")).sendKeys("glance:pay");
        dash.browser.waitText("status", "1 lock shown");

        for (String[] link : new String[][] {
            {"health-forced", "audit"},
            {"health-clients", "clients"},
            {"health-lost", "activity"},
            {"health-held", "locks"}
        }) {
            dash.browser.driver.findElement(By.id(link[0])).click();
            dash.browser.waitFor(By.id(link[1]));
            assertTrue(
                    dash.browser.driver.getCurrentUrl().endsWith("/" + link[1]), dash.browser.driver.getCurrentUrl());
            assertTrue(dash.browser.driver.findElement(By.id("health")).isDisplayed(), "the strip on " + link[1]);
        }
        dash.browser.driver.findElement(By.id("nav-fences")).click();
        dash.browser.waitFor(By.id("fences"));
        assertTrue(dash.browser.driver.findElement(By.id("health")).isDisplayed(), "the strip on fences");
    }

    private static String text(String id) {
        WebElement e = dash.browser.driver.findElement(By.id(id));
        return e.getText();
    }

    private static void waitText(String id, String expected) {
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(25))
                .ignoring(StaleElementReferenceException.class)
                .until(d -> expected.equals(d.findElement(By.id(id)).getText()));
    }
}
