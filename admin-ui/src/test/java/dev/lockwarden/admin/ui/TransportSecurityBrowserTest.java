package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.web.TrustedProxies;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Forwarded client addresses, the Host check, the security headers and the operator who must get in
 * during a flood of wrong passwords, with Chromium sending {@code X-Forwarded-For} as a proxy would.
 */
class TransportSecurityBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static LockManager locks;
    private static Browser browser;

    @BeforeAll
    static void start() {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        locks = LockManager.builder().redis(REDIS.uri()).application("billing").build();
        browser = new Browser();
        // collect CSP violations from the very first script of every page (CDP scripts are exempt from the CSP)
        browser.driver.executeCdpCommand(
                "Page.addScriptToEvaluateOnNewDocument",
                Map.of(
                        "source",
                        "window.__csp = []; document.addEventListener('securitypolicyviolation', "
                                + "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"));
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(browser, locks);
    }

    private static void forwardedFor(String value) {
        browser.driver.executeCdpCommand("Network.enable", Map.of());
        browser.driver.executeCdpCommand(
                "Network.setExtraHTTPHeaders",
                Map.of("headers", value == null ? Map.of() : Map.of("X-Forwarded-For", value)));
    }

    private static AdminServer dashboard(String trusted) throws Exception {
        AdminConfig config = Fixtures.config(Fixtures.viewerAndOperator());
        return AdminServer.start(
                trusted == null ? config : config.withTrustedProxies(TrustedProxies.parse(trusted, "test")),
                locks.inspector());
    }

    @Test
    void forwardedForIsIgnoredFromAnUntrustedPeerAndItsRightMostUntrustedHopIsTheClientThroughATrustedOne()
            throws Exception {
        try (CapturedLog audit = new CapturedLog(LoginService.AUDIT_LOGGER);
                AdminServer untrusted = dashboard("10.0.0.0/8");
                AdminServer trusted = dashboard("127.0.0.1/32")) {
            forwardedFor("203.0.113.66");
            loginAs(untrusted, "viewer");
            forwardedFor("203.0.113.66, 198.51.100.7"); // the client's forgery, then what the proxy appended
            loginAs(trusted, "operator");
            String all = String.join("\n", audit.lines());
            assertTrue(all.contains("user 'viewer' (VIEWER) from 127.0.0.1"), all);
            assertTrue(all.contains("user 'operator' (OPERATOR) from 198.51.100.7"), all);
            assertTrue(!all.contains("203.0.113.66"), "the forged hop is never believed: " + all);
        } finally {
            forwardedFor(null);
        }
    }

    @Test
    void aFloodOfWrongPasswordsFromFiftyAddressesNeitherDelaysTheOperatorOnTheirOwnAddressNorOpensToAStranger()
            throws Exception {
        try (AdminServer server = dashboard("127.0.0.1/32")) {
            forwardedFor("198.51.100.10");
            loginAs(server, "operator"); // the operator's machine, known from an earlier login
            int refused = 0;
            for (int a = 1; a <= 50; a++) {
                for (int i = 0; i < 8; i++) {
                    var outcome = server.logins().login("operator", ("guess-" + i).toCharArray(), "203.0.113." + a);
                    refused += outcome.user().isEmpty() ? 1 : 0;
                }
            }
            assertEquals(400, refused);
            long t0 = System.nanoTime();
            loginAs(server, "operator");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("operator logged in %d ms after 400 wrong passwords from 50 addresses%n", ms);
            forwardedFor("192.0.2.99"); // never logged in: the flood's per-user backoff applies here
            browser.login("operator", Fixtures.password("operator"));
            browser.waitFor(By.cssSelector("vaadin-login-form[error]"));
            assertTrue(browser.driver.findElements(By.id("locks")).isEmpty());
        } finally {
            forwardedFor(null);
        }
    }

    @Test
    void aForeignHostNameIsRefusedAndThePublicUrlsHostIsAccepted() throws Exception {
        AdminConfig config =
                Fixtures.config(Fixtures.viewerAndOperator()).withPublicUrl(URI.create("https://locks.example.com/"));
        try (AdminServer server = AdminServer.start(config, locks.inspector())) {
            int port = server.port();
            assertEquals(421, status(port, "rebind.attacker.example"));
            assertEquals(421, status(port, "rebind.attacker.example:" + port));
            assertEquals(421, status(port, "127.0.0.2:" + port));
            assertEquals(200, status(port, "127.0.0.1:" + port));
            assertEquals(200, status(port, "localhost:" + port));
            assertEquals(200, status(port, "locks.example.com"));
            assertEquals(200, status(port, "LOCKS.example.com:443"));
        }
    }

    @Test
    void hstsAndTheScriptPolicyAreSentAndTheDashboardRunsUnderThem() throws Exception {
        AdminConfig config = Fixtures.config(Fixtures.viewerAndOperator())
                .withBehindTlsProxy(true)
                .withTrustedProxies(TrustedProxies.parse("127.0.0.1/32", "test"));
        try (AdminServer server = AdminServer.start(config, locks.inspector())) {
            List<String> head = head(server.port(), "127.0.0.1:" + server.port(), "X-Forwarded-Proto: https");
            assertTrue(head.contains("Strict-Transport-Security: max-age=31536000"), head.toString());
            assertTrue(
                    head.stream()
                            .anyMatch(h -> h.startsWith("Content-Security-Policy: ")
                                    && h.contains("script-src 'self'")
                                    && !h.contains("*")
                                    && !h.contains("http")),
                    head.toString());
            assertTrue(
                    head.stream().anyMatch(h -> h.startsWith("Set-Cookie: JSESSIONID") && h.contains("Secure")),
                    head.toString());
            loginAs(server, "operator");
            browser.driver.findElement(By.id("nav-audit")).click();
            browser.waitFor(By.id("audit"));
            browser.driver.findElement(By.id("nav-locks")).click();
            browser.waitFor(By.id("locks"));
            assertEquals(List.of(), browser.driver.executeScript("return window.__csp"), "no CSP violation");
        }
    }

    private static void loginAs(AdminServer server, String user) {
        browser.base(server.uri().toString());
        browser.loginAs(user);
        new WebDriverWait(browser.driver, Duration.ofSeconds(20))
                .until(d -> !d.findElements(By.id("locks")).isEmpty());
    }

    private static int status(int port, String host) throws Exception {
        return Integer.parseInt(head(port, host).get(0).split(" ")[1]);
    }

    /** The status line and headers of {@code GET /login} with this {@code Host} (HttpClient may not set Host). */
    private static List<String> head(int port, String host, String... headers) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            Writer w = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.US_ASCII);
            w.write("GET /login HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n");
            for (String h : headers) {
                w.write(h + "\r\n");
            }
            w.write("\r\n");
            w.flush();
            BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            List<String> lines = new ArrayList<>();
            for (String line = r.readLine(); line != null && !line.isEmpty(); line = r.readLine()) {
                lines.add(line);
            }
            return lines;
        }
    }
}
