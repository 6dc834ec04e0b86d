package dev.lockwarden.admin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.ui.Browser;
import dev.lockwarden.admin.ui.Fixtures;
import dev.lockwarden.config.RedisUri;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Redis password never shows: the dashboard runs as {@code java -jar} with a Redis ACL user whose
 * password contains {@code /}, {@code @} and {@code +}, and no page of any view, no line of the
 * process's output and no {@code toString()} contains it.
 */
class SecretsIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    static final String USER = "dash";
    static final String PASSWORD = "Sup3r/s3cr@t+Pw";
    /** Each form the password could take in a page or a log: raw, URL-encoded, and its distinctive middle. */
    static final List<String> FORMS =
            List.of(PASSWORD, URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8), "s3cr@t+Pw", "s3cr%40t");

    @TempDir
    Path dir;

    @BeforeAll
    static void aclUser() {
        REDIS.node(0).command("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all");
    }

    static String uri() {
        return "redis://" + USER + ":" + PASSWORD + "@127.0.0.1:"
                + REDIS.node(0).port();
    }

    @Test
    void noPageNoOutputLineAndNoToStringShowsTheRedisPassword() throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(
                users,
                "ops = OPERATOR:"
                        + dev.lockwarden.admin.security.PasswordHasher.hash("ops-password".toCharArray(), 10_000)
                        + "\n");
        Map<String, String> pages = new LinkedHashMap<>();
        try (LockManager holder = LockManager.builder()
                        .redis(uri())
                        .application("billing")
                        .build();
                LockHandle held = holder.acquire(
                        "secret:held", LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
                LockHandle victim = holder.acquire(
                        "secret:victim",
                        LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false));
                JarProcess jar = new JarProcess(
                        JarProcess.JAR,
                        dir,
                        null,
                        Map.of("LOCKWARDEN_REDIS", uri()),
                        "--port",
                        "0",
                        "--users",
                        users.toString());
                Browser browser = new Browser()) {
            String listening = jar.await(RunnableJarIT.LISTENING + ".*", Duration.ofSeconds(60))
                    .group();
            assertTrue(
                    listening.contains("Redis redis://" + USER + ":***@127.0.0.1:"
                            + REDIS.node(0).port()),
                    "the start-up line shows the masked URI: " + listening);
            String base =
                    jar.await(RunnableJarIT.LISTENING, Duration.ofSeconds(1)).group(1);
            browser.base(base);
            browser.open("login");
            browser.waitFor(By.cssSelector("vaadin-login-form"));
            pages.put("login", browser.driver.getPageSource());
            browser.login("ops", "ops-password");
            browser.waitFor(By.cssSelector("b.lock-name[data-lock='secret:held']"));
            pages.put("locks", browser.driver.getPageSource());

            browser.driver.get(base + "locks/secret:victim");
            browser.waitVisible(By.id("force-release")).click();
            browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
            pages.put("force-release dialog", browser.driver.getPageSource());
            browser.driver
                    .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                    .click();
            new WebDriverWait(browser.driver, Duration.ofSeconds(10))
                    .until(d -> d.findElement(By.id("release-result")).getText().contains("audit id"));
            pages.put("lock details after force-release", browser.driver.getPageSource());
            visit(browser, base, "fences", "fences", "secret:held", pages);
            visit(browser, base, "clients", "clients", "billing", pages);
            visit(browser, base, "audit", "audit", "secret:victim", pages);
            visit(browser, base, "activity", "activity", "billing", pages);

            REDIS.node(0).stop(); // error messages, too
            browser.driver.get(base + "locks");
            new WebDriverWait(browser.driver, Duration.ofSeconds(30))
                    .until(d -> d.findElement(By.id("status")).getText().startsWith("Cannot read locks"));
            pages.put("locks with Redis down", browser.driver.getPageSource());
            REDIS.node(0).restart();
            aclUser();

            for (Map.Entry<String, String> page : pages.entrySet()) {
                for (String form : FORMS) {
                    assertFalse(page.getValue().contains(form), "the " + page.getKey() + " page shows '" + form + "'");
                }
            }
            assertTrue(pages.get("audit").contains("ops"), "the pages are real: the audit names the operator");
            String output = jar.output();
            assertTrue(output.contains("dashboard login OK: user 'ops'"), "the output is the process's log: " + output);
            for (String form : FORMS) {
                assertFalse(output.contains(form), "the dashboard's output shows '" + form + "':\n" + output);
            }
            for (Object o : new Object[] {holder, holder.inspector(), RedisUri.parse(uri())}) {
                for (String form : FORMS) {
                    assertFalse(String.valueOf(o).contains(form), o.getClass() + ".toString(): " + o);
                }
            }
        }
        try (LockManager admin = LockManager.builder()
                        .redis(uri())
                        .application("lockwarden-admin")
                        .build();
                AdminServer server =
                        AdminServer.start(Fixtures.config(Fixtures.viewerAndOperator()), admin.inspector())) {
            for (Object o :
                    new Object[] {server, Fixtures.config(Fixtures.viewerAndOperator()), AdminCommand.commandLine()}) {
                for (String form : FORMS) {
                    assertFalse(String.valueOf(o).contains(form), o.getClass() + ".toString(): " + o);
                }
            }
        }
    }

    @Test
    void aWrongPasswordStopsTheStartWithAMessageThatDoesNotShowIt() throws Exception {
        String wrong = "Wr0ng/p@ss+word";
        String uri =
                "redis://" + USER + ":" + wrong + "@127.0.0.1:" + REDIS.node(0).port();
        try (JarProcess jar =
                new JarProcess(JarProcess.JAR, dir, null, Map.of("LOCKWARDEN_REDIS", uri), "--port", "0")) {
            assertEquals(2, jar.exitCode(Duration.ofSeconds(60)), jar.output());
            assertTrue(jar.output().contains("lockwarden-admin:"), jar.output());
            List<String> shown = new ArrayList<>();
            for (String form : List.of(wrong, URLEncoder.encode(wrong, StandardCharsets.UTF_8), "p@ss+word")) {
                if (jar.output().contains(form)) {
                    shown.add(form);
                }
            }
            assertEquals(List.of(), shown, jar.output());
        }
    }

    private static void visit(
            Browser browser, String base, String path, String gridId, String mustShow, Map<String, String> pages) {
        browser.driver.get(base + path);
        browser.waitFor(By.id(gridId));
        browser.waitCells(mustShow);
        pages.put(path, browser.driver.getPageSource());
    }
}
