package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The main flow of each view in real Chromium: locks (filters, deep link, marks), fences, clients, audit. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the clients test releases the orphaned lock the others look at
class ViewsBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final String DEAD_JVM = "dead0000jvm";

    private static LockManager billing;
    private static Dashboard dash;
    private static long freedFence;

    @BeforeAll
    static void start() throws Exception {
        billing =
                LockManager.builder().redis(REDIS.uri()).application("billing").build();
        billing.acquire("view:api", LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
        billing.acquire(
                "view:cdi",
                LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false).source(LockSource.CDI, "Billing#charge"));
        try (LockHandle h = billing.acquire("view:freed", LockOptions.ttl(Duration.ofSeconds(30)))) {
            freedFence = h.fencingToken();
        }
        // a lock whose holder JVM died: its heartbeat key is gone (written as acquire.lua writes it)
        REDIS.node(0).command("SET", "lock:{view:orphan}", "tok-dead", "PX", "600000");
        REDIS.node(0).command("SET", "lock:{view:orphan}:fence", "7");
        REDIS.node(0)
                .command(
                        "HSET",
                        "lock:{view:orphan}:info",
                        "fence",
                        "7",
                        "app",
                        "ghost",
                        "host",
                        "gone-host",
                        "pid",
                        "4242",
                        "jvm",
                        DEAD_JVM,
                        "thread",
                        "main",
                        "source",
                        "AGENT",
                        "method",
                        "Legacy#run",
                        "acquiredAt",
                        Long.toString(System.currentTimeMillis() - 3_600_000));
        REDIS.node(0).command("PEXPIRE", "lock:{view:orphan}:info", "600000");
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.viewerAndOperator());
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash, billing);
    }

    @Test
    @Order(1)
    void locksViewMarksOrphanedAndLongHeldFiltersOnTheServerAndDeepLinks() {
        dash.browser.loginAs("viewer");
        WebElement orphanState = dash.browser.waitFor(By.cssSelector("span.holder-state[data-lock='view:orphan']"));
        assertTrue(
                orphanState.getText().contains("ORPHANED")
                        && orphanState.getText().contains("LONG-HELD"),
                orphanState.getText());
        assertEquals(
                "alive",
                dash.browser
                        .driver
                        .findElement(By.cssSelector("span.holder-state[data-lock='view:api']"))
                        .getText());

        dash.browser
                .driver
                .findElement(By.cssSelector("#filter-orphaned input"))
                .click();
        waitStatus("1 lock ");
        assertTrue(names().contains("view:orphan") && !names().contains("view:api"), names().toString());
        dash.browser
                .driver
                .findElement(By.cssSelector("#filter-orphaned input"))
                .click();
        dash.browser
                .driver
                .findElement(By.cssSelector("#filter-application input"))
                .sendKeys("billing");
        waitStatus("2 locks");
        assertEquals(List.of("view:api", "view:cdi"), names().stream().sorted().toList());

        dash.browser.driver.get(dash.server.uri() + "locks/view:cdi");
        WebElement details = dash.browser.waitVisible(By.id("details"));
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> details.getText().contains("CDI Billing#charge"));
        assertTrue(details.getText().contains("view:cdi"), details.getText());
        String meta = dash.browser.driver.findElement(By.id("detail-meta")).getText();
        assertTrue(
                meta.matches("(?s).*Acquired \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+ \\(.* ago\\).*"),
                "acquired at with zone, and age: " + meta);
    }

    @Test
    @Order(2)
    void fencingCountersIncludeFreeLocksWithRetention() throws Exception {
        dash.browser.loginAs("viewer");
        dash.browser.waitFor(By.id("locks"));
        List<String> c = dash.browser.openView("fences", "view:freed");
        int at = c.indexOf("view:freed");
        assertEquals(Long.toString(freedFence), c.get(at + 1), c.toString());
        assertEquals("free", c.get(at + 2), c.toString());
        assertTrue(c.get(at + 3).matches("\\d+ h \\d\\d m"), "retention " + c.get(at + 3));
        dash.browser.screenshot(java.nio.file.Path.of("target", "screenshots", "fences.png"));
    }

    @Test
    @Order(3)
    void clientsShowsLiveAndDeadClientsAndAnOperatorReleasesAllLocksOfADeadOneWithAnAuditRecordEach() throws Exception {
        dash.browser.loginAs("operator");
        dash.browser.waitFor(By.id("locks"));
        List<String> c = dash.browser.openView("clients", DEAD_JVM);
        assertTrue(
                c.contains("billing") && c.contains("alive") && c.contains("DEAD") && c.contains("ghost"),
                c.toString());
        // the live client's heartbeat carries its versions: Application, Host, PID, Lockwarden, Java
        int billingRow = c.indexOf("billing");
        assertEquals(Long.toString(ProcessHandle.current().pid()), c.get(billingRow + 2), c.toString());
        assertEquals(System.getProperty("lockwarden.project.version"), c.get(billingRow + 3), c.toString());
        assertEquals(System.getProperty("java.version"), c.get(billingRow + 4), c.toString());
        int ghostRow = c.indexOf("ghost");
        assertEquals("—", c.get(ghostRow + 3), "a dead client's version is unknown: " + c);
        dash.browser.screenshot(java.nio.file.Path.of("target", "screenshots", "clients.png"));
        dash.browser
                .waitVisible(By.cssSelector("vaadin-button.release-all[data-jvm='" + DEAD_JVM + "']"))
                .click();
        dash.browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        dash.browser
                .driver
                .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                .click();
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("clients-status")).getText().startsWith("Released 1 of 1"));
        assertTrue(dash.admin.inspector().get("view:orphan").isEmpty());

        List<String> a = dash.browser.openView("audit", "view:orphan");
        int at = a.indexOf("view:orphan");
        assertEquals("operator", a.get(at - 1), a.toString());
        assertTrue(a.get(at + 1).startsWith("ghost @ gone-host"), a.toString());
        assertEquals("7", a.get(at + 2));
        dash.browser.screenshot(java.nio.file.Path.of("target", "screenshots", "audit.png"));
        dash.browser.driver.findElement(By.cssSelector("#audit-filter input")).sendKeys("nobody-matches");
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("audit-status")).getText().startsWith("0 force-releases"));
    }

    private static void waitStatus(String prefix) {
        dash.browser.waitText("status", prefix);
    }

    private static List<String> names() {
        return dash.browser.displayedTexts(By.cssSelector("b.lock-name"));
    }
}
