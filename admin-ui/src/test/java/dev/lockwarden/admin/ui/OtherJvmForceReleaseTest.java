package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/** An operator force-releases a lock held by another JVM process: that process's onLost fires, the row goes, the audit names the operator. */
class OtherJvmForceReleaseTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final By ROW = By.cssSelector("b.lock-name[data-lock='remote:job']");

    @Test
    void theOtherProcessLearnsItLostTheLock() throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx128m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HolderMain.class.getName(),
                        REDIS.uri(),
                        "remote:job")
                .redirectErrorStream(true)
                .start();
        LinkedBlockingQueue<String> out = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
                        .lines()
                        .forEach(out::add),
                "holder-output");
        reader.setDaemon(true);
        reader.start();
        try (LockManager admin = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("lockwarden-admin")
                        .build();
                AdminServer server =
                        AdminServer.start(Fixtures.config(Fixtures.users("operator:OPERATOR")), admin.inspector());
                Browser browser = new Browser(server.uri().toString())) {
            String held = next(out, "HELD ");
            long fence = Long.parseLong(held.substring(5).trim());
            assertEquals(
                    child.pid(),
                    admin.inspector().get("remote:job").orElseThrow().holder().pid(),
                    "held by the other process");

            browser.loginAs("operator");
            browser.waitFor(ROW).click();
            browser.waitVisible(By.id("force-release")).click();
            WebElement dialog = browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
            assertTrue(
                    dialog.getText().contains("remote-worker @")
                            && dialog.getText().contains("pid " + child.pid()),
                    dialog.getText());
            browser.driver
                    .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                    .click();

            String lost = next(out, "LOST ");
            assertTrue(lost.startsWith("LOST " + fence + " "), lost);
            browser.waitGone(ROW);
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the holder process ends after onLost");

            List<String> c = browser.openView("audit", "remote:job");
            int at = c.indexOf("remote:job");
            assertEquals("operator", c.get(at - 1), c.toString());
            assertTrue(c.get(at + 1).contains("pid " + child.pid()), c.toString());
            assertEquals(Long.toString(fence), c.get(at + 2), c.toString());
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String next(LinkedBlockingQueue<String> out, String prefix) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        StringBuilder seen = new StringBuilder();
        while (System.nanoTime() < end) {
            String line = out.poll(500, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.append(line).append('\n');
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }
        throw new AssertionError("the holder process printed no '" + prefix + "' line; output:\n" + seen);
    }
}
