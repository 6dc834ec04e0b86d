package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code /locks/<name>} for names with URL-special characters: the link the details show (and the
 * address bar) is the percent-encoded one, and it opens exactly that lock (name, holder, fence) when
 * pasted into a fresh tab and into a browser that must log in first, not another lock or none.
 */
class DeepLinkBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * Each name and the link its details must show. The pairs {@code a b}/{@code a+b},
     * {@code x y}/{@code x%20y} and {@code a/b}/{@code a%2Fb} differ only in how a sloppy decoder would
     * read them: each must open its own lock. Names with a {@code .}/{@code ..} part or a backslash
     * cannot be a path segment and use the query form.
     */
    static final Map<String, String> LINKS = new LinkedHashMap<>();

    static {
        LINKS.put("payment:TX-123", "locks/payment:TX-123"); // an ordinary name stays readable
        LINKS.put("job_v1.2*@host", "locks/job_v1.2*@host");
        LINKS.put("payment:TX 1/2?x=1#y%20z", "locks/payment:TX%201%2F2%3Fx%3D1%23y%2520z");
        LINKS.put("ünïcode:ä", "locks/%C3%BCn%C3%AFcode:%C3%A4");
        LINKS.put("a b", "locks/a%20b");
        LINKS.put("a+b", "locks/a%2Bb");
        LINKS.put("x y", "locks/x%20y");
        LINKS.put("x%20y", "locks/x%2520y");
        LINKS.put("a/b", "locks/a%2Fb");
        LINKS.put("a%2Fb", "locks/a%252Fb");
        LINKS.put("q&r=s;t", "locks/q%26r%3Ds%3Bt");
        LINKS.put("odd:%", "locks/odd:%25");
        LINKS.put("x/../y", "locks?name=x%2F..%2Fy");
        LINKS.put("..", "locks?name=..");
        LINKS.put("win\\dir", "locks?name=win%5Cdir");
    }

    private static final Map<String, String> THREADS = new LinkedHashMap<>();
    private static LockManager holder;
    private static Dashboard dash;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        holder = LockManager.builder().redis(REDIS.uri()).application("links").build();
        String testThread = Thread.currentThread().getName();
        int i = 0;
        for (String name : LINKS.keySet()) {
            // each lock's holder shows its own thread name: the details prove which lock they show
            THREADS.put(name, "holder-" + i++);
            Thread.currentThread().setName(THREADS.get(name));
            try {
                holder.acquire(name, LockOptions.ttl(Duration.ofSeconds(600)).autoRefresh(false));
            } finally {
                Thread.currentThread().setName(testThread);
            }
        }
        dash = Dashboard.start(LockManager.builder().redis(REDIS.uri()), Fixtures.viewerAndOperator());
        base = dash.server.uri().toString();
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(dash, holder);
    }

    @Test
    void eachLocksLinkIsPercentEncodedAndOpensThatLockInAFreshTabAndAfterALogin() {
        dash.browser.loginAs("viewer");
        dash.browser.waitText("status", LINKS.size() + " locks");
        List<String> timings = new ArrayList<>();
        for (Map.Entry<String, String> e : LINKS.entrySet()) {
            String name = e.getKey();
            long t0 = System.nanoTime();
            dash.browser.driver.get(base + "locks");
            new WebDriverWait(dash.browser.driver, WAIT)
                    .ignoring(StaleElementReferenceException.class)
                    .ignoring(ElementClickInterceptedException.class)
                    .until(d -> d.findElements(By.cssSelector("b.lock-name")).stream()
                            .filter(b -> name.equals(b.getDomAttribute("data-lock")))
                            .findFirst()
                            .map(b -> {
                                dash.browser.driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", b);
                                b.click();
                                return true;
                            })
                            .orElse(false));
            awaitDetailsOf(name);
            String href = dash.browser.driver.findElement(By.id("detail-link")).getDomProperty("href");
            assertEquals(base + e.getValue(), href, "the link shown for " + name);
            assertEquals(href, dash.browser.driver.getCurrentUrl(), "the address bar shows the lock's link");

            String list = dash.browser.driver.getWindowHandle();
            dash.browser.driver.switchTo().newWindow(WindowType.TAB).get(href); // pasted into a new tab
            awaitDetailsOf(name);
            assertEquals(href, dash.browser.driver.getCurrentUrl());
            dash.browser.driver.close();
            dash.browser.driver.switchTo().window(list);

            dash.browser.driver.manage().deleteAllCookies(); // a browser without a session: login first
            dash.browser.driver.get(href);
            dash.browser.submitLogin("viewer", Fixtures.password("viewer"));
            awaitDetailsOf(name);
            assertEquals(href, dash.browser.driver.getCurrentUrl(), "the login kept the link's target");
            timings.add((System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        System.out.println("per name (click, new tab, login): " + timings);
    }

    @Test
    void anUnknownOrInvalidNameSaysSoAndHandTypedLinksWork() {
        dash.browser.loginAs("viewer");
        dash.browser.waitFor(By.id("status"));
        dash.browser.driver.get(base + "locks/no:such%20lock");
        assertEquals(
                "no:such lock", dash.browser.waitVisible(By.id("detail-title")).getText());
        dash.browser.waitText("detail-holder", "No such lock (it may have been released).");
        assertFalse(dash.browser.driver.getPageSource().contains("exception"), "no error page");

        dash.browser.driver.get(base + "locks/a%7Bb%7D"); // lock-core refuses braces in names
        dash.browser.waitText("detail-holder", "Not a lock name: lock name 'a{b}' contains '{'");
        assertFalse(dash.browser.driver.getPageSource().contains("exception"), "no error page");

        dash.browser.driver.get(base + "locks/a/b"); // typed with a raw slash
        awaitDetailsOf("a/b");
        assertEquals(base + "locks/a%2Fb", dash.browser.driver.getCurrentUrl(), "rewritten to the canonical link");
        dash.browser.driver.get(base + "locks/a+b"); // a '+' in a path is a plus, not a space
        awaitDetailsOf("a+b");
    }

    /**
     * Jetty lets %2F and %25 through for the links; '..' hidden behind them still reaches no file. This
     * (and Jetty refusing %5C) is why names with a '..' part or a backslash get the query form.
     */
    @Test
    void encodedSlashesDoNotOpenFilesOutsideTheStaticFolder() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of(
                "VAADIN/..%2F..%2Fdev/lockwarden/admin/AdminServer.class",
                "VAADIN/build/..%2F..%2F..%2F..%2FMETA-INF/MANIFEST.MF",
                "..%2Fetc/passwd",
                "locks/x%2F..%2Fy",
                "locks/win%5Cdir")) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), path);
            assertFalse(r.body().contains("AdminServer") || r.body().contains("Manifest-Version"), path);
        }
    }

    /** Waits until the details show {@code name}, held by its own holder thread, with its fence. */
    private static void awaitDetailsOf(String name) {
        new WebDriverWait(dash.browser.driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> name.equals(d.findElement(By.id("detail-title")).getText()));
        String thread = "thread " + THREADS.get(name) + " (";
        new WebDriverWait(dash.browser.driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.id("detail-holder")).getText().contains(thread));
        String fence = dash.browser.driver.findElement(By.id("detail-fence")).getText();
        assertTrue(
                fence.startsWith(
                        "Fence " + holder.inspector().get(name).orElseThrow().fencingToken() + " "),
                name + ": " + fence);
    }
}
