package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * 200 clients sending wrong passwords (checked against a production-strength, 600,000-iteration hash) at once:
 * the password checks are capped, so the dashboard's pages keep answering.
 */
class LoginLoadBrowserTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int CLIENTS = 200;
    private static final Duration LOAD = Duration.ofSeconds(10);

    @Test
    void twoHundredConcurrentLoginAttemptsKeepThePagesAnswering() throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        UserDirectory users = UserDirectory.of(Map.of(
                "operator", "OPERATOR:" + PasswordHasher.hash("operator-pw".toCharArray()),
                "viewer", "VIEWER:" + PasswordHasher.hash("viewer-pw".toCharArray(), PasswordHasher.MIN_ITERATIONS)));
        try (LockManager locks = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("billing")
                        .build();
                AdminServer server = AdminServer.start(Fixtures.config(users), locks.inspector());
                Browser browser = new Browser(server.uri().toString())) {
            browser.loginAs("viewer");
            browser.waitFor(By.id("locks"));
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            AtomicInteger attempts = new AtomicInteger();
            long end = System.nanoTime() + LOAD.toNanos();
            List<Future<?>> clients = new ArrayList<>();
            try {
                for (int c = 0; c < CLIENTS; c++) {
                    String address = "198.18." + c / 250 + "." + c % 250;
                    clients.add(pool.submit(() -> {
                        for (int i = 0; i < 100 && System.nanoTime() < end; i++) {
                            // a new name each time: the per-user backoff never answers for the gate
                            server.logins().login("user-" + address + "-" + i, "guess".toCharArray(), address);
                            attempts.incrementAndGet();
                        }
                    }));
                }
                HttpClient http = HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                long worstPage = 0;
                long worstView = 0;
                int pages = 0;
                while (System.nanoTime() < end - Duration.ofSeconds(2).toNanos()) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> page = http.send(
                            HttpRequest.newBuilder(server.uri().resolve("login"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, page.statusCode());
                    worstPage = Math.max(worstPage, System.nanoTime() - t0);
                    long t1 = System.nanoTime();
                    browser.driver
                            .findElement(By.id(pages % 2 == 0 ? "nav-audit" : "nav-locks"))
                            .click();
                    browser.waitFor(By.id(pages % 2 == 0 ? "audit" : "locks"));
                    worstView = Math.max(worstView, System.nanoTime() - t1);
                    pages++;
                }
                for (Future<?> f : clients) {
                    f.get(60, TimeUnit.SECONDS);
                }
                System.out.printf(
                        "%d clients, %d login attempts in %d s, peak %d password checks at once; %d page loads, "
                                + "slowest /login %d ms, slowest view switch %d ms%n",
                        CLIENTS,
                        attempts.get(),
                        LOAD.toSeconds(),
                        server.logins().peakConcurrentChecks(),
                        pages,
                        worstPage / 1_000_000,
                        worstView / 1_000_000);
                assertEquals(2, server.logins().peakConcurrentChecks());
                assertTrue(attempts.get() >= CLIENTS, "every client tried: " + attempts.get());
                assertTrue(pages >= 3, "pages loaded: " + pages);
                assertTrue(worstPage < 2_000_000_000L, "slowest /login " + worstPage / 1_000_000 + " ms");
                assertTrue(worstView < 3_000_000_000L, "slowest view switch " + worstView / 1_000_000 + " ms");
                LoginService.Outcome after = server.logins().login("viewer", "viewer-pw".toCharArray(), "127.0.0.1");
                assertTrue(after.user().isPresent(), after.message());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
