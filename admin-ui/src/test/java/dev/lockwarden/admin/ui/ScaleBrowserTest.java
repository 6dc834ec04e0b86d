package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * 100,000 held locks: the first page shows within a second, and the dashboard never reads them all; a sparse
 * filter scans on until it has seen every key and says so.
 * <p>
 * The one-second bound (admin-ui/README.md: "With 100,000 held locks the view opens in under a second") is the
 * median of {@value #RUNS} opens of the Locks view from another view, after {@value #WARM_UPS} opens not
 * measured (the first ones pay for class loading, JIT and the browser's first layout of the grid): on a shared
 * 2-core machine one open can stall behind another process, the median of warm opens does not.
 */
class ScaleBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    static final int LOCKS = 100_000;
    static final int WARM_UPS = 2;
    static final int RUNS = 7;

    @org.junit.jupiter.api.BeforeAll
    static void hundredThousandLocks() {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        long t0 = System.nanoTime();
        dev.lockwarden.admin.service.BulkLocks.acquire(REDIS.node(0), LOCKS);
        System.out.printf("%d locks taken through acquire.lua in %d ms%n", LOCKS, (System.nanoTime() - t0) / 1_000_000);
        assertEquals(
                Integer.toString(LOCKS * 2 + 1),
                REDIS.node(0).command("DBSIZE").trim(),
                "lock + fence per lock, one holder record");
    }

    @Test
    void aSparseFilterScansOnInTheBackgroundAndAFullNameShowsAtOnce() throws Exception {
        try (LockManager admin = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("lockwarden-admin")
                        .build();
                AdminServer server = AdminServer.start(
                        Fixtures.config(Fixtures.users("viewer:VIEWER")), admin.inspector(), admin.describeRedis());
                Browser browser = new Browser(server.uri().toString())) {
            browser.loginAs("viewer");
            browser.waitFor(By.id("locks"));
            theTotalOfHeldLocksIsShown(browser);
            sparseFilterScansOnUntilTheWholeKeySpaceIsSeen(browser);
            aFullNameShowsAtOnce(browser);
        }
    }

    @Test
    void firstPageOf100kLocksInUnderASecondReadingOnlyWhatIsShown() throws Exception {

        try (LockManager admin = LockManager.builder()
                .redis(REDIS.uri())
                .application("lockwarden-admin")
                .build()) {
            CountingInspector counting = new CountingInspector(admin.inspector());
            try (AdminServer server = AdminServer.start(Fixtures.config(Fixtures.users("viewer:VIEWER")), counting);
                    Browser browser = new Browser(server.uri().toString())) {
                browser.loginAs("viewer");
                browser.waitFor(By.id("locks"));
                // open the locks view WARM_UPS + RUNS times (from the fencing counters view), and once by a full
                // page load; only the last RUNS count
                long[] millis = new long[RUNS];
                long serverMillis = 0;
                for (int run = -WARM_UPS; run < RUNS; run++) {
                    browser.driver.findElement(By.id("nav-fences")).click();
                    browser.waitFor(By.id("fences"));
                    browser.driver.executeScript(PROFILE);
                    long server0 = counting.listNanos.get() + counting.getAllNanos.get();
                    long start = System.nanoTime();
                    browser.driver.findElement(By.id("nav-locks")).click();
                    waitForRows(browser);
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    long inInspector = (counting.listNanos.get() + counting.getAllNanos.get() - server0) / 1_000_000;
                    if (run >= 0) {
                        millis[run] = ms;
                        serverMillis = Math.max(serverMillis, inInspector);
                    }
                    System.out.printf(
                            "%s %d: first page of %d locks in the browser after %d ms, %d ms of it in the inspector; in the page: %s%n",
                            run < 0 ? "warm-up" : "run",
                            run < 0 ? run + WARM_UPS + 1 : run + 1,
                            LOCKS,
                            ms,
                            inInspector,
                            browser.driver.executeScript("return window.__profile()"));
                }
                long start = System.nanoTime();
                browser.driver.get(server.uri() + "locks"); // a full page load, bootstrap included
                waitForRows(browser);
                long reload = (System.nanoTime() - start) / 1_000_000;
                long[] sorted = millis.clone();
                java.util.Arrays.sort(sorted);
                long median = sorted[RUNS / 2];
                System.out.printf(
                        "first page of %d locks: median %d ms of %s after %d warm-ups (full page reload: %d ms; load %s)%n",
                        LOCKS,
                        median,
                        java.util.Arrays.toString(millis),
                        WARM_UPS,
                        reload,
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                                .getSystemLoadAverage());
                // the README's "under a second": the median of warm opens (see the class comment)
                assertTrue(median < 1_000, "first page after " + java.util.Arrays.toString(millis) + " ms");
                assertTrue(serverMillis < 500, "the inspector's share of opening the view: " + serverMillis + " ms");

                long rowsBefore = counting.rowsRead.get();
                long listsBefore = counting.listCalls.get();
                Thread.sleep(5_000); // five live refreshes
                String status = browser.driver.findElement(By.id("status")).getText();
                int shown = Integer.parseInt(
                        status.substring(0, status.indexOf(" ")).replace(",", ""));
                long refreshRows = counting.rowsRead.get() - rowsBefore;
                System.out.printf(
                        "shown %d; 5 s of refresh read %d rows in %d list calls; most rows in one call %d; total rows read %d%n",
                        shown,
                        refreshRows,
                        counting.listCalls.get() - listsBefore,
                        counting.mostRowsInOneCall.get(),
                        counting.rowsRead.get());
                assertTrue(shown >= 50 && shown <= 200, status);
                assertTrue(refreshRows <= 7L * shown, "the refresh re-reads only the shown rows: " + refreshRows);
                assertTrue(
                        counting.mostRowsInOneCall.get() <= 500, "one call read " + counting.mostRowsInOneCall.get());
                assertTrue(
                        counting.rowsRead.get() < LOCKS / 20,
                        "the dashboard read " + counting.rowsRead.get() + " rows");
            }
        }
    }

    /** The strip and the Locks view's status show the exact total, counted in the background. */
    private static void theTotalOfHeldLocksIsShown(Browser browser) {
        long t0 = System.nanoTime();
        new WebDriverWait(browser.driver, Duration.ofSeconds(40)) // a count cut short is retried after 30 s
                .pollingEvery(Duration.ofMillis(50))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .withMessage(() -> "strip '"
                        + browser.driver.findElement(By.id("health-held")).getText() + "', status '"
                        + browser.driver.findElement(By.id("status")).getText() + "'")
                .until(d -> d.findElement(By.id("health-held")).getText().equals("100,000 locks held")
                        && d.findElement(By.id("status")).getText().contains(" · 100,000 locks held · "));
        System.out.printf(
                "total shown %d ms after the Locks view: strip '%s', status '%s'%n",
                (System.nanoTime() - t0) / 1_000_000,
                browser.driver.findElement(By.id("health-held")).getText(),
                browser.driver.findElement(By.id("status")).getText());
    }

    /**
     * 11 of the 100,000 names start with bulk:9999 (bulk:9999, bulk:99990..99999): far fewer than a page. The
     * status ends with "11 of 11 matches, N keys scanned", N the key space's DBSIZE (200,001 keys of the locks, and
     * the dashboard's own few).
     */
    private static void sparseFilterScansOnUntilTheWholeKeySpaceIsSeen(Browser browser) {
        List<String> seen = new ArrayList<>();
        long keysBefore = dbsize();
        long t0 = System.nanoTime();
        browser.driver.findElement(By.cssSelector("#filter-prefix input")).sendKeys("bulk:9999");
        new WebDriverWait(browser.driver, Duration.ofSeconds(60))
                .pollingEvery(Duration.ofMillis(50))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> {
                    String status = d.findElement(By.id("status"))
                            .getText()
                            .replaceAll(" · updated .*", "")
                            .replaceAll(" · [^·]*locks? held[^·]*$", "");
                    if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(status)) {
                        seen.add(status);
                    }
                    return status.contains(" matches, ") || status.contains(" match, ");
                });
        long keysAfter = dbsize();
        System.out.printf(
                "bulk:9999 over %d locks: all matches after %d ms; statuses: %s; DBSIZE %d before, %d after%n",
                LOCKS, (System.nanoTime() - t0) / 1_000_000, seen, keysBefore, keysAfter);
        String last = seen.get(seen.size() - 1);
        long keys = last.endsWith(String.format(java.util.Locale.ROOT, " %,d keys scanned", keysBefore))
                ? keysBefore
                : keysAfter; // a key of the dashboard's own came or went during the scan
        assertEquals(
                String.format(java.util.Locale.ROOT, "11 locks shown · 11 of 11 matches, %,d keys scanned", keys),
                last,
                () -> browser.displayedTexts(By.cssSelector("b.lock-name")).toString());
        assertTrue(keys >= LOCKS * 2L + 1 && keys < LOCKS * 2L + 11, "DBSIZE: the locks' keys and the dashboard's");
        // the grid holds the 11 (its height, under the health strip, may show fewer rows at once), and the rows
        // it shows are among them
        new WebDriverWait(browser.driver, Duration.ofSeconds(5))
                .until(d -> Long.valueOf(11)
                        .equals(((org.openqa.selenium.JavascriptExecutor) d)
                                .executeScript("return document.getElementById('locks').size")));
        List<String> rows = browser.displayedTexts(By.cssSelector("b.lock-name"));
        assertTrue(!rows.isEmpty() && rows.stream().allMatch(n -> n.startsWith("bulk:9999")), rows::toString);
        assertTrue(
                seen.stream().noneMatch(st -> st.contains(" of 0 matches")),
                "never 'no such lock' before the scan ended: " + seen);
    }

    private static long dbsize() {
        return Long.parseLong(REDIS.node(0).command("DBSIZE").trim());
    }

    /** A name typed in full is read directly, before the scan reaches it. */
    private static void aFullNameShowsAtOnce(Browser browser) {
        WebElement prefix = browser.driver.findElement(By.cssSelector("#filter-prefix input"));
        prefix.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), "bulk:54321");
        long t0 = System.nanoTime();
        new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                .pollingEvery(Duration.ofMillis(20))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> d.findElements(By.cssSelector("b.lock-name[data-lock='bulk:54321']")).stream()
                        .anyMatch(WebElement::isDisplayed));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("bulk:54321 typed in full: its row after %d ms%n", ms);
        assertTrue(ms < 3_000, ms + " ms");
    }

    /**
     * Where the time goes, seen from the page: the server round trips (Vaadin UIDL requests: sent,
     * answered) and when the first lock row was in the DOM, all in ms after the click.
     */
    private static final String PROFILE = """
            performance.clearResourceTimings();
            const t0 = performance.now();
            let rows = -1;
            new MutationObserver((m, o) => {
              if (document.querySelector('b.lock-name')) { rows = performance.now() - t0; o.disconnect(); }
            }).observe(document.body, {subtree: true, childList: true});
            window.__profile = () => 'first row in the DOM at ' + Math.round(rows) + ' ms; round trips '
              + performance.getEntriesByType('resource').filter(e => e.name.includes('v-r=uidl'))
                  .map(e => Math.round(e.startTime - t0) + '..' + Math.round(e.responseEnd - t0)).join(', ');
            """;

    private static void waitForRows(Browser browser) {
        new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                .pollingEvery(Duration.ofMillis(20))
                .until(d ->
                        d.findElements(By.cssSelector("b.lock-name")).stream().anyMatch(WebElement::isDisplayed));
    }
}
