package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.testing.RedisServerExtension;

/** The main flow of each view in real Chromium: locks (filters, deep link, marks), fences, clients, audit. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the clients test releases the orphaned lock the others look at
class ViewsBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);
    private static final String DEAD_JVM = "dead0000jvm";

    private static LockManager billing;
    private static LockManager admin;
    private static AdminServer server;
    private static Browser browser;
    private static long freedFence;

    @BeforeAll
    static void start() throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        billing = LockManager.builder().redis(REDIS.uri()).application("billing").build();
        admin = LockManager.builder().redis(REDIS.uri()).application("lockwarden-admin").build();
        billing.acquire("view:api", LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
        billing.acquire("view:cdi", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false).source(LockSource.CDI, "Billing#charge"));
        try (LockHandle h = billing.acquire("view:freed", LockOptions.ttl(Duration.ofSeconds(30)))) {
            freedFence = h.fencingToken();
        }
        // a lock whose holder JVM died: its heartbeat key is gone (written as acquire.lua writes it)
        REDIS.node(0).command("SET", "lock:{view:orphan}", "tok-dead", "PX", "600000");
        REDIS.node(0).command("SET", "lock:{view:orphan}:fence", "7");
        REDIS.node(0).command("HSET", "lock:{view:orphan}:info", "fence", "7", "app", "ghost", "host", "gone-host", "pid", "4242",
                "jvm", DEAD_JVM, "thread", "main", "source", "AGENT", "method", "Legacy#run", "acquiredAt",
                Long.toString(System.currentTimeMillis() - 3_600_000));
        REDIS.node(0).command("PEXPIRE", "lock:{view:orphan}:info", "600000");
        UserDirectory users = UserDirectory.of(Map.of(
                "viewer", "VIEWER:" + PasswordHasher.hash("viewer-pw".toCharArray(), 10_000),
                "operator", "OPERATOR:" + PasswordHasher.hash("operator-pw".toCharArray(), 10_000)));
        server = AdminServer.start(new AdminConfig(InetAddress.getLoopbackAddress(), 0, 50, users), admin.inspector());
        browser = new Browser(server.uri().toString());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {browser, server, admin, billing}) {
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
    @Order(1)
    void locksViewMarksOrphanedAndLongHeldFiltersOnTheServerAndDeepLinks() {
        browser.login("viewer", "viewer-pw");
        WebElement orphanState = browser.waitFor(By.cssSelector("span.holder-state[data-lock='view:orphan']"));
        assertTrue(orphanState.getText().contains("ORPHANED") && orphanState.getText().contains("LONG-HELD"), orphanState.getText());
        assertEquals("alive", browser.driver.findElement(By.cssSelector("span.holder-state[data-lock='view:api']")).getText());
        assertTrue(cells().stream().anyMatch(c -> c.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+")), "acquired at with zone: " + cells());

        browser.driver.findElement(By.cssSelector("#filter-orphaned input")).click();
        waitStatus("1 locks");
        assertTrue(names().contains("view:orphan") && !names().contains("view:api"), names().toString());
        browser.driver.findElement(By.cssSelector("#filter-orphaned input")).click();
        browser.driver.findElement(By.cssSelector("#filter-application input")).sendKeys("billing");
        waitStatus("2 locks");
        assertEquals(List.of("view:api", "view:cdi"), names().stream().sorted().toList());

        browser.driver.get(server.uri() + "locks/view:cdi");
        WebElement details = browser.waitVisible(By.id("details"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> details.getText().contains("CDI Billing#charge"));
        assertTrue(details.getText().contains("view:cdi"), details.getText());
    }

    @Test
    @Order(2)
    void fencingCountersIncludeFreeLocksWithRetention() throws Exception {
        browser.login("viewer", "viewer-pw");
        browser.waitFor(By.id("locks"));
        browser.driver.findElement(By.id("nav-fences")).click();
        browser.waitFor(By.id("fences"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> cells().contains("view:freed"));
        List<String> c = cells();
        int at = c.indexOf("view:freed");
        assertEquals(Long.toString(freedFence), c.get(at + 1), c.toString());
        assertEquals("free", c.get(at + 2), c.toString());
        assertTrue(c.get(at + 3).matches("\\d+ h \\d\\d m"), "retention " + c.get(at + 3));
        browser.screenshot(java.nio.file.Path.of("target", "screenshots", "fences.png"));
    }

    @Test
    @Order(3)
    void clientsShowsLiveAndDeadClientsAndAnOperatorReleasesAllLocksOfADeadOneWithAnAuditRecordEach() throws Exception {
        browser.login("operator", "operator-pw");
        browser.waitFor(By.id("locks"));
        browser.driver.findElement(By.id("nav-clients")).click();
        browser.waitFor(By.id("clients"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> cells().contains(DEAD_JVM));
        List<String> c = cells();
        assertTrue(c.contains("billing") && c.contains("alive") && c.contains("DEAD") && c.contains("ghost"), c.toString());
        // the live client's heartbeat carries its versions: Application, Host, PID, Lockwarden, Java
        int billingRow = c.indexOf("billing");
        assertEquals(Long.toString(ProcessHandle.current().pid()), c.get(billingRow + 2), c.toString());
        assertEquals(System.getProperty("lockwarden.project.version"), c.get(billingRow + 3), c.toString());
        assertEquals(System.getProperty("java.version"), c.get(billingRow + 4), c.toString());
        int ghostRow = c.indexOf("ghost");
        assertEquals("—", c.get(ghostRow + 3), "a dead client's version is unknown: " + c);
        browser.screenshot(java.nio.file.Path.of("target", "screenshots", "clients.png"));
        browser.waitVisible(By.cssSelector("vaadin-button.release-all[data-jvm='" + DEAD_JVM + "']")).click();
        browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        browser.driver.findElement(By.cssSelector("vaadin-button[slot='confirm-button']")).click();
        new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("clients-status")).getText().startsWith("Released 1 of 1"));
        assertTrue(admin.inspector().get("view:orphan").isEmpty());

        browser.driver.findElement(By.id("nav-audit")).click();
        browser.waitFor(By.id("audit"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> cells().contains("view:orphan"));
        List<String> a = cells();
        int at = a.indexOf("view:orphan");
        assertEquals("operator", a.get(at - 1), a.toString());
        assertTrue(a.get(at + 1).startsWith("ghost @ gone-host"), a.toString());
        assertEquals("7", a.get(at + 2));
        browser.screenshot(java.nio.file.Path.of("target", "screenshots", "audit.png"));
        browser.driver.findElement(By.cssSelector("#audit-filter input")).sendKeys("nobody-matches");
        new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("audit-status")).getText().startsWith("0 force-releases"));
    }

    private static void waitStatus(String prefix) {
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> d.findElement(By.id("status")).getText().startsWith(prefix));
    }

    private static List<String> names() {
        return browser.driver.findElements(By.cssSelector("b.lock-name")).stream().filter(WebElement::isDisplayed)
                .map(WebElement::getText).toList();
    }

    private static List<String> cells() {
        return browser.driver.findElements(By.cssSelector("vaadin-grid-cell-content")).stream().map(WebElement::getText).toList();
    }
}
