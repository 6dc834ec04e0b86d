package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;

/**
 * A lock's details show its history as the inspector returns it (the lock's own capped history and
 * its recent events in the global stream): after a force-release and after a lost lock.
 */
class LockHistoryBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final By EVENT_CELLS = By.cssSelector("#events vaadin-grid-cell-content");
    /** Columns of the details' events grid: Event, At, Fence, By, Details. */
    private static final int FENCE = 2;

    private static final int BY = 3;
    private static final int DETAILS = 4;

    private static LockManager holder;
    private static Dashboard dash;

    @BeforeAll
    static void start() throws Exception {
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.viewerAndOperator());
        holder = LockManager.builder().redis(REDIS.uri()).application("billing").build();
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash, holder);
    }

    @Test
    void afterAForceReleaseTheHistoryShowsItByTheOperatorThenTheHoldersLossAndKeepsItWhenTheGlobalStreamIsBusy()
            throws Exception {
        CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
        LockHandle h = holder.acquire(
                "hist:forced", LockOptions.ttl(Duration.ofSeconds(6)).autoRefresh(true));
        h.onLost(lost::complete);
        dash.browser.loginAs("operator");
        dash.browser
                .waitFor(By.cssSelector("b.lock-name[data-lock='hist:forced']"))
                .click();
        dash.browser.waitVisible(By.id("force-release")).click();
        dash.browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        dash.browser
                .driver
                .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                .click();
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("release-result")).getText().contains("audit id"));
        long newFence = dash.admin.inspector().fenceOf("hist:forced");
        lost.get(10, TimeUnit.SECONDS);

        // the view re-reads the history every few seconds: the holder's loss arrives after the release
        List<String> row = eventRow("lost", Duration.ofSeconds(20));
        assertEquals(Long.toString(h.fencingToken()), row.get(FENCE), row.toString());
        assertEquals("billing", row.get(BY), row.toString());
        List<String> forced = eventRow("force-release", Duration.ofSeconds(1));
        assertEquals(Long.toString(h.fencingToken()), forced.get(FENCE), forced.toString());
        assertEquals("operator", forced.get(BY), forced.toString());
        assertTrue(
                forced.get(DETAILS).contains("fence → " + newFence)
                        && forced.get(DETAILS).contains("holder billing @"),
                forced.toString());
        assertTrue(
                dash.browser.cells().stream().noneMatch(c -> c.contains("oldToken")),
                "no token, not even a hash of one");

        floodTheGlobalEventStream(3_000);
        dash.browser.driver.get(dash.server.uri() + "locks/hist:forced"); // a fresh read of the deep link
        List<String> still = eventRow("force-release", Duration.ofSeconds(10));
        assertEquals(
                "operator",
                still.get(BY),
                "found in the lock's own history although 3,000 newer events crowd the stream: " + still);
    }

    @Test
    void aLostLockKeepsItsAcquireAndLostEventsInItsDetailsAfterItIsFree() throws Exception {
        CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
        LockHandle h = holder.acquire(
                "hist:lost", LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(true));
        h.onLost(lost::complete);
        REDIS.node(0).command("DEL", "lock:{hist:lost}"); // taken away behind the holder's back: its next refresh fails
        LockLostEvent event = lost.get(10, TimeUnit.SECONDS);

        dash.browser.loginAs("viewer");
        dash.browser.waitFor(By.id("locks"));
        dash.browser.driver.get(dash.server.uri() + "locks/hist:lost");
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> d.findElement(By.id("detail-holder"))
                        .getText()
                        .equals("No such lock (it may have been released)."));
        List<String> row = eventRow("lost", Duration.ofSeconds(10));
        assertEquals(Long.toString(h.fencingToken()), row.get(FENCE), row.toString());
        assertEquals("billing", row.get(BY), row.toString());
        assertTrue(row.get(DETAILS).contains("reason " + event.reason()), row + " vs " + event);
        List<String> acquired = eventRow("acquire", Duration.ofSeconds(1));
        assertEquals(Long.toString(h.fencingToken()), acquired.get(FENCE), acquired.toString());
        dash.browser.screenshot(java.nio.file.Path.of("target", "screenshots", "lock-history.png"));
    }

    /** The cells of the first displayed events row of {@code type}, waiting for it. */
    private static List<String> eventRow(String type, Duration wait) {
        return new WebDriverWait(dash.browser.driver, wait)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> {
                    List<String> c = d.findElements(EVENT_CELLS).stream()
                            .map(e -> e.getText())
                            .toList();
                    int at = c.indexOf(type);
                    return at < 0 || at + DETAILS >= c.size() ? null : c.subList(at, at + DETAILS + 1);
                });
    }

    private static void floodTheGlobalEventStream(int events) {
        try (RedisClient c =
                        RedisClient.create(REDIS.node(0).host(), REDIS.node(0).port());
                AbstractPipeline p = c.pipelined()) {
            for (int i = 0; i < events; i++) {
                p.xadd(
                        "lockwarden:events",
                        redis.clients.jedis.StreamEntryID.NEW_ENTRY,
                        java.util.Map.of(
                                "type",
                                "acquire",
                                "name",
                                "busy:" + i,
                                "fence",
                                "1",
                                "app",
                                "busy",
                                "at",
                                Long.toString(System.currentTimeMillis())));
            }
            p.sync();
        }
    }
}
