package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Login throttling, uniform failures, idle timeout, framing headers and the Secure cookie, in real Chromium. */
class SecurityBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final Duration IDLE = Duration.ofSeconds(4);

    private static LockManager locks;
    private static AdminServer server;
    private static AdminServer proxied;
    /** Its own server: the throttle it trips is per client address, and every test comes from 127.0.0.1. */
    private static AdminServer throttled;

    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        locks = LockManager.builder().redis(REDIS.uri()).application("billing").build();
        locks.acquire("sec:held", LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
        AdminConfig config = Fixtures.config(Fixtures.users("viewer:VIEWER", "victim:OPERATOR"))
                .withSessionTimeout(IDLE);
        server = AdminServer.start(config, locks.inspector());
        proxied = AdminServer.start(
                config.withBehindTlsProxy(true)
                        .withTrustedProxies(dev.lockwarden.admin.web.TrustedProxies.parse("127.0.0.1/32", "test")),
                locks.inspector());
        throttled = AdminServer.start(config, locks.inspector());
        browser = new Browser(server.uri().toString());
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(browser, server, proxied, throttled, locks);
    }

    @Test
    void unknownUserAndWrongPasswordShowTheSameErrorAndTheSixthRapidFailureIsThrottled() {
        browser.base(throttled.uri().toString());
        try {
            tripThrottle();
        } finally {
            browser.base(server.uri().toString());
        }
    }

    private void tripThrottle() {
        String unknown = failedLogin("nobody", "whatever");
        String wrong = failedLogin("victim", "wrong-1");
        assertEquals("Incorrect user name or password.", unknown);
        assertEquals(unknown, wrong);
        for (int i = 2; i <= 4; i++) {
            assertEquals(unknown, failedLogin("victim", "wrong-" + i));
        }
        String sixth = failedLogin("victim", "victim-pw");
        assertTrue(sixth.startsWith("Too many failed logins"), "6th attempt, even with the right password: " + sixth);
    }

    @Test
    void anIdleSessionIsLoggedOutAlthoughThePageRefreshesEverySecond() throws Exception {
        browser.loginAs("viewer");
        browser.waitFor(By.cssSelector("b.lock-name[data-lock='sec:held']"));
        String ttl = browser.driver
                .findElement(By.cssSelector("span.ttl[data-lock='sec:held']"))
                .getText();
        new WebDriverWait(browser.driver, Duration.ofSeconds(5))
                .until(d -> !d.findElement(By.cssSelector("span.ttl[data-lock='sec:held']"))
                        .getText()
                        .equals(ttl)); // polls run
        new WebDriverWait(browser.driver, IDLE.plusSeconds(10))
                .until(d -> d.getCurrentUrl().contains("/login"));
        browser.waitVisible(By.id("session-expired"));
        browser.driver.get(server.uri() + "locks");
        browser.waitFor(By.cssSelector("vaadin-login-form"));
        assertTrue(browser.driver.findElements(By.id("locks")).isEmpty(), "the session is gone, not just the page");
    }

    @Test
    void activityKeepsTheSessionAlive() throws Exception {
        browser.loginAs("viewer");
        browser.waitFor(By.id("locks"));
        long end = System.nanoTime() + IDLE.multipliedBy(2).toNanos();
        while (System.nanoTime() < end) {
            browser.driver.findElement(By.id("status")).click();
            Thread.sleep(1000);
        }
        assertFalse(browser.driver.getCurrentUrl().contains("/login"), browser.driver.getCurrentUrl());
        assertFalse(browser.driver.findElements(By.id("locks")).isEmpty());
    }

    @Test
    void pagesMayNotBeFramedAndCookiesAreSecureBehindATlsProxy() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> plain = http.send(
                HttpRequest.newBuilder(server.uri().resolve("login"))
                        .header("X-Forwarded-Proto", "https")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, plain.statusCode());
        assertEquals(List.of("DENY"), plain.headers().allValues("X-Frame-Options"));
        assertEquals(List.of(SecurityHeadersFilter.CSP), plain.headers().allValues("Content-Security-Policy"));
        assertEquals(
                List.of(), plain.headers().allValues("Strict-Transport-Security"), "HSTS only behind the TLS proxy");
        String cookie = String.join(";", plain.headers().allValues("Set-Cookie"));
        assertTrue(cookie.contains("JSESSIONID") && cookie.contains("HttpOnly"), cookie);
        assertFalse(cookie.contains("Secure"), "forwarded headers are not trusted unless configured: " + cookie);

        HttpResponse<String> viaProxy = http.send(
                HttpRequest.newBuilder(proxied.uri().resolve("login"))
                        .header("X-Forwarded-Proto", "https")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String secure = String.join(";", viaProxy.headers().allValues("Set-Cookie"));
        assertTrue(secure.contains("JSESSIONID") && secure.contains("Secure"), secure);
    }

    @Test
    void anEmptyFieldIsStoppedByTheFormAndAnEmptyLoginThatReachesTheServerLooksLikeAWrongOneAndCountsTowardTheThrottle()
            throws Exception {
        UserDirectory users = Fixtures.users("victim:OPERATOR");
        try (CapturedLog audit = new CapturedLog(LoginService.AUDIT_LOGGER);
                AdminServer fresh = AdminServer.start(Fixtures.config(users), locks.inspector());
                AdminServer control = AdminServer.start(Fixtures.config(users), locks.inspector())) {
            browser.base(fresh.uri().toString());
            // what a user sees: Vaadin's login form refuses an empty field itself, the same for a known and an unknown
            // user name, and sends nothing to the server
            for (String[] attempt : new String[][] {{"victim", ""}, {"nobody", ""}, {"", ""}}) {
                browser.login(attempt[0], attempt[1]);
                browser.waitFor(By.cssSelector("#vaadinLoginPassword[invalid]"));
                WebElement form = browser.driver.findElement(By.cssSelector("vaadin-login-form"));
                assertTrue(form.getText().contains("Password is required"), form.getText());
                assertEquals(null, form.getDomAttribute("error"), "no answer from the server");
            }
            Thread.sleep(500); // a login request would have been answered by now
            assertEquals(List.of(), audit.lines(), "nothing reached the server");

            // the server side: the form's own login event (a real UIDL request from the page) with empty fields,
            // as a client that skips the form's check sends it
            String wrong = failedLogin("victim", "wrong-1");
            assertEquals(LoginService.FAILED, wrong);
            assertEquals(wrong, eventLogin("victim", ""), "empty password");
            assertEquals(wrong, eventLogin("victim", ""), "empty password again");
            assertEquals(wrong, eventLogin("", ""), "empty user name and password");
            assertEquals(wrong, eventLogin("", "victim-pw"), "empty user name");
            assertEquals(
                    5,
                    audit.lines().stream()
                            .filter(l -> l.startsWith("dashboard login FAILED"))
                            .count(),
                    audit.lines().toString());
            assertTrue(
                    failedLogin("victim", "victim-pw").startsWith("Too many failed logins"),
                    "the empty attempts counted: the 6th, with the right password, is throttled");

            // control: one wrong password alone does not throttle the right one
            browser.base(control.uri().toString());
            assertEquals(wrong, failedLogin("victim", "wrong-1"));
            browser.loginAs("victim");
            browser.waitFor(By.id("locks"));
        } finally {
            browser.base(server.uri().toString());
        }
    }

    /** Fires the login form's {@code login} event (what its submit sends) past its client-side checks; returns the error title. */
    private String eventLogin(String user, String password) {
        browser.open("login");
        browser.waitFor(By.cssSelector("vaadin-login-form"));
        browser.driver.executeScript(
                "document.querySelector('vaadin-login-form').dispatchEvent(new CustomEvent('login', "
                        + "{detail: {username: arguments[0], password: arguments[1]}}));",
                user,
                password);
        return errorTitle();
    }

    /** Submits one login and returns the error title shown. */
    private String failedLogin(String user, String password) {
        browser.login(user, password);
        return errorTitle();
    }

    private String errorTitle() {
        browser.waitFor(By.cssSelector("vaadin-login-form[error]"));
        return new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> {
            Object title = browser.driver.executeScript(
                    "const f = document.querySelector('vaadin-login-form'); return f.i18n && f.i18n.errorMessage.title;");
            return title == null || title.toString().isEmpty() ? null : title.toString();
        });
    }
}
