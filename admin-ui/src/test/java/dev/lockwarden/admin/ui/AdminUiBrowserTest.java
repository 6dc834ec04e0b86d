package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
    private static Dashboard dash;
    private static LockHandle stuck;
    private static final CompletableFuture<LockLostEvent> LOST = new CompletableFuture<>();

    @BeforeAll
    static void start() throws Exception {
        holder = LockManager.builder().redis(REDIS.uri()).application("billing").build();
        holder.acquire("orders:steady", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false));
        holder.acquire("jobs:nightly", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false));
        stuck = holder.acquire(
                "orders:stuck", LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(true));
        stuck.onLost(LOST::complete);
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.viewerAndOperator());
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash, holder);
    }

    @Test
    void unauthenticatedVisitorsAreSentToLogin() {
        dash.browser.open("");
        dash.browser.waitFor(By.cssSelector("vaadin-login-form"));
        assertTrue(dash.browser.driver.getCurrentUrl().endsWith("/login"), dash.browser.driver.getCurrentUrl());
        assertTrue(dash.browser.driver.findElements(By.id("locks")).isEmpty());
    }

    @Test
    void viewerSeesLocksWithTtlCountingDownAndNoForceRelease() throws Exception {
        dash.browser.loginAs("viewer");
        double first = seconds(dash.browser.waitFor(STEADY).getText());
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .pollingEvery(Duration.ofMillis(200))
                .until(d -> seconds(d.findElement(STEADY).getText()) < first - 0.5);
        assertTrue(first <= 120 && first > 60, "TTL " + first);

        List<String> cells = dash.browser.driver.findElements(By.cssSelector("vaadin-grid-cell-content")).stream()
                .map(WebElement::getText)
                .toList();
        assertTrue(
                cells.containsAll(List.of("orders:steady", "jobs:nightly", "orders:stuck", "billing", "alive")),
                cells.toString());
        assertTrue(dash.browser.driver.findElement(By.id("signed-in")).getText().contains("VIEWER"));

        dash.browser
                .driver
                .findElement(By.cssSelector("b.lock-name[data-lock='orders:steady']"))
                .click();
        dash.browser.waitVisible(By.id("details"));
        dash.browser.waitFor(By.cssSelector("#events vaadin-grid-cell-content"));
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElements(By.cssSelector("#events vaadin-grid-cell-content")).stream()
                        .anyMatch(c -> "billing".equals(c.getText()))); // the "By" column reads the events' app field
        assertTrue(
                dash.browser.driver.findElements(By.id("force-release")).stream()
                        .noneMatch(WebElement::isDisplayed),
                "viewers get no force-release button");
        Thread.sleep(300); // let the events grid paint
        dash.browser.screenshot(Path.of("target", "screenshots", "locks.png"));

        dash.browser.driver.findElement(By.cssSelector("#filter-prefix input")).sendKeys("jobs:");
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("status")).getText().startsWith("1 lock "));
        dash.browser.waitGone(By.cssSelector("b.lock-name[data-lock='orders:steady']"));
        assertTrue(dash.browser
                .driver
                .findElement(By.cssSelector("b.lock-name[data-lock='jobs:nightly']"))
                .isDisplayed());
    }

    @Test
    void operatorForceReleasesAStuckLockAndTheHolderLosesIt() throws Exception {
        dash.browser.loginAs("operator");
        dash.browser.waitFor(STUCK).click();
        dash.browser.waitVisible(By.id("force-release")).click();
        WebElement dialog = dash.browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        assertTrue(dialog.getText().contains("Fence: " + stuck.fencingToken()), dialog.getText());
        assertTrue(dialog.getText().contains("billing @"), dialog.getText());
        dash.browser
                .driver
                .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                .click();

        WebElement result = dash.browser.waitVisible(By.id("release-result"));
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> result.getText().contains("audit id"));
        Matcher m = Pattern.compile("Released orders:stuck: fence (\\d+) → (\\d+), audit id (\\S+)")
                .matcher(result.getText());
        assertTrue(m.find(), result.getText());
        assertEquals(stuck.fencingToken(), Long.parseLong(m.group(1)));
        assertTrue(Long.parseLong(m.group(2)) > stuck.fencingToken());
        dash.browser.waitGone(STUCK);

        LockLostEvent lost = LOST.get(10, TimeUnit.SECONDS);
        assertEquals("orders:stuck", lost.lockName());
        assertFalse(stuck.isHeld());
        List<String> audit = Arrays.asList(REDIS.node(0)
                .command("XRANGE", "lockwarden:audit", m.group(3), m.group(3))
                .split("\n"));
        assertEquals("operator", audit.get(audit.indexOf("operator") + 1), audit.toString());
        assertEquals("orders:stuck", audit.get(audit.indexOf("name") + 1), audit.toString());
    }

    @Test
    void aLockThatChangedHandsBetweenDialogAndConfirmIsNotReleased() {
        LockHandle first = holder.acquire(
                "handover:job", LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false));
        dash.browser.loginAs("operator");
        dash.browser
                .waitFor(By.cssSelector("b.lock-name[data-lock='handover:job']"))
                .click();
        dash.browser.waitVisible(By.id("force-release")).click();
        WebElement dialog = dash.browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        assertTrue(dialog.getText().contains("Lock: handover:job"), dialog.getText());
        assertTrue(dialog.getText().contains("Fence: " + first.fencingToken()), dialog.getText());
        assertTrue(
                dialog.getText().contains("autoRefresh(false)"),
                "says what the holder experiences: " + dialog.getText());

        first.release(); // meanwhile the lock changes hands
        try (LockHandle second = dash.admin.acquire(
                "handover:job", LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false))) {
            dash.browser
                    .driver
                    .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                    .click();
            WebElement result = dash.browser.waitVisible(By.id("release-result"));
            new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                    .until(d -> result.getText().contains("changed hands"));
            assertTrue(result.getText().contains("Nothing was released"), result.getText());
            assertTrue(second.isHeld());
            assertEquals(
                    second.fencingToken(),
                    dash.admin.inspector().get("handover:job").orElseThrow().fencingToken());
            assertEquals(
                    "lockwarden-admin",
                    dash.admin
                            .inspector()
                            .get("handover:job")
                            .orElseThrow()
                            .holder()
                            .application());
        }
    }

    @Test
    void wrongPasswordStaysOnLogin() {
        dash.browser.login("operator", "not-the-password");
        dash.browser.waitFor(By.cssSelector("vaadin-login-form[error]"));
        assertTrue(dash.browser.driver.getCurrentUrl().endsWith("/login"), dash.browser.driver.getCurrentUrl());
        assertTrue(dash.browser.driver.findElements(By.id("locks")).isEmpty());
    }

    private static double seconds(String ttl) {
        Matcher m = SECONDS.matcher(ttl);
        return m.find()
                ? (m.group(1) == null ? 0 : 60 * Integer.parseInt(m.group(1))) + Double.parseDouble(m.group(2))
                : Double.NaN;
    }
}
