package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.testing.RedisServerExtension;

/**
 * The dashboard in real headless Chromium against a real redis-server, with locks held by a
 * {@link LockManager} in this JVM.
 */
class AdminUiBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final By STEADY = By.cssSelector("span.ttl[data-lock='orders:steady']");
    private static final By STUCK = By.cssSelector("b.lock-name[data-lock='orders:stuck']");
    private static final Pattern SECONDS = Pattern.compile("(?:(\\d+) m )?([0-9.]+) s");

    private static LockManager holder;
    private static LockManager admin;
    private static AdminServer server;
    private static Browser browser;
    private static LockHandle stuck;
    private static final CompletableFuture<LockLostEvent> LOST = new CompletableFuture<>();

    @BeforeAll
    static void start() throws Exception {
        holder = LockManager.builder().redis(REDIS.uri()).application("billing").build();
        admin = LockManager.builder().redis(REDIS.uri()).application("lockwarden-admin").build();
        holder.acquire("orders:steady", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false));
        holder.acquire("jobs:nightly", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false));
        stuck = holder.acquire("orders:stuck", LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(true));
        stuck.onLost(LOST::complete);
        UserDirectory users = UserDirectory.of(Map.of(
                "viewer", "VIEWER:" + PasswordHasher.hash("viewer-pw".toCharArray(), 10_000),
                "operator", "OPERATOR:" + PasswordHasher.hash("operator-pw".toCharArray(), 10_000)));
        long t0 = System.nanoTime();
        server = AdminServer.start(new AdminConfig(InetAddress.getLoopbackAddress(), 0, 50, users), admin.inspector());
        long t1 = System.nanoTime();
        browser = new Browser(server.uri().toString());
        System.out.printf("dashboard started in %d ms, Chromium in %d ms%n", (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {browser, server, admin, holder}) {
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
    void unauthenticatedVisitorsAreSentToLogin() {
        browser.open("");
        browser.waitFor(By.cssSelector("vaadin-login-form"));
        assertTrue(browser.driver.getCurrentUrl().endsWith("/login"), browser.driver.getCurrentUrl());
        assertTrue(browser.driver.findElements(By.id("locks")).isEmpty());
    }

    @Test
    void viewerSeesLocksWithTtlCountingDownAndNoForceRelease() throws Exception {
        browser.login("viewer", "viewer-pw");
        double first = seconds(browser.waitFor(STEADY).getText());
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).pollingEvery(Duration.ofMillis(200))
                .until(d -> seconds(d.findElement(STEADY).getText()) < first - 0.5);
        assertTrue(first <= 120 && first > 60, "TTL " + first);

        List<String> cells = browser.driver.findElements(By.cssSelector("vaadin-grid-cell-content")).stream()
                .map(WebElement::getText).toList();
        assertTrue(cells.containsAll(List.of("orders:steady", "jobs:nightly", "orders:stuck", "billing", "alive")), cells.toString());
        assertTrue(browser.driver.findElement(By.id("signed-in")).getText().contains("VIEWER"));

        browser.driver.findElement(By.cssSelector("b.lock-name[data-lock='orders:steady']")).click();
        browser.waitVisible(By.id("details"));
        browser.waitFor(By.cssSelector("#events vaadin-grid-cell-content"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> d.findElements(By.cssSelector("#events vaadin-grid-cell-content"))
                .stream().anyMatch(c -> "billing".equals(c.getText()))); // the "By" column reads the events' app field
        assertTrue(browser.driver.findElements(By.id("force-release")).stream().noneMatch(WebElement::isDisplayed),
                "viewers get no force-release button");
        Thread.sleep(300); // let the events grid paint
        browser.screenshot(Path.of("target", "screenshots", "locks.png"));

        browser.driver.findElement(By.cssSelector("#filter-prefix input")).sendKeys("jobs:");
        new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("status")).getText().startsWith("1 locks"));
        browser.waitGone(By.cssSelector("b.lock-name[data-lock='orders:steady']"));
        assertTrue(browser.driver.findElement(By.cssSelector("b.lock-name[data-lock='jobs:nightly']")).isDisplayed());
    }

    @Test
    void operatorForceReleasesAStuckLockAndTheHolderLosesIt() throws Exception {
        browser.login("operator", "operator-pw");
        browser.waitFor(STUCK).click();
        browser.waitVisible(By.id("force-release")).click();
        WebElement dialog = browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        assertTrue(dialog.getText().contains("Fence: " + stuck.fencingToken()), dialog.getText());
        assertTrue(dialog.getText().contains("billing @"), dialog.getText());
        browser.driver.findElement(By.cssSelector("vaadin-button[slot='confirm-button']")).click();

        WebElement result = browser.waitVisible(By.id("release-result"));
        new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> result.getText().contains("audit id"));
        Matcher m = Pattern.compile("Released orders:stuck: fence (\\d+) → (\\d+), audit id (\\S+)").matcher(result.getText());
        assertTrue(m.find(), result.getText());
        assertEquals(stuck.fencingToken(), Long.parseLong(m.group(1)));
        assertTrue(Long.parseLong(m.group(2)) > stuck.fencingToken());
        browser.waitGone(STUCK);

        LockLostEvent lost = LOST.get(10, TimeUnit.SECONDS);
        assertEquals("orders:stuck", lost.lockName());
        assertFalse(stuck.isHeld());
        List<String> audit = Arrays.asList(REDIS.node(0).command("XRANGE", "lockwarden:audit", m.group(3), m.group(3)).split("\n"));
        assertEquals("operator", audit.get(audit.indexOf("operator") + 1), audit.toString());
        assertEquals("orders:stuck", audit.get(audit.indexOf("name") + 1), audit.toString());
    }

    @Test
    void aLockThatChangedHandsBetweenDialogAndConfirmIsNotReleased() {
        LockHandle first = holder.acquire("handover:job", LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false));
        browser.login("operator", "operator-pw");
        browser.waitFor(By.cssSelector("b.lock-name[data-lock='handover:job']")).click();
        browser.waitVisible(By.id("force-release")).click();
        WebElement dialog = browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        assertTrue(dialog.getText().contains("Lock: handover:job"), dialog.getText());
        assertTrue(dialog.getText().contains("Fence: " + first.fencingToken()), dialog.getText());
        assertTrue(dialog.getText().contains("autoRefresh(false)"), "says what the holder experiences: " + dialog.getText());

        first.release(); // meanwhile the lock changes hands
        try (LockHandle second = admin.acquire("handover:job", LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false))) {
            browser.driver.findElement(By.cssSelector("vaadin-button[slot='confirm-button']")).click();
            WebElement result = browser.waitVisible(By.id("release-result"));
            new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> result.getText().contains("changed hands"));
            assertTrue(result.getText().contains("Nothing was released"), result.getText());
            assertTrue(second.isHeld());
            assertEquals(second.fencingToken(), admin.inspector().get("handover:job").orElseThrow().fencingToken());
            assertEquals("lockwarden-admin", admin.inspector().get("handover:job").orElseThrow().holder().application());
        }
    }

    @Test
    void wrongPasswordStaysOnLogin() {
        browser.login("operator", "not-the-password");
        browser.waitFor(By.cssSelector("vaadin-login-form[error]"));
        assertTrue(browser.driver.getCurrentUrl().endsWith("/login"), browser.driver.getCurrentUrl());
        assertTrue(browser.driver.findElements(By.id("locks")).isEmpty());
    }

    private static double seconds(String ttl) {
        Matcher m = SECONDS.matcher(ttl);
        return m.find() ? (m.group(1) == null ? 0 : 60 * Integer.parseInt(m.group(1))) + Double.parseDouble(m.group(2)) : Double.NaN;
    }
}
