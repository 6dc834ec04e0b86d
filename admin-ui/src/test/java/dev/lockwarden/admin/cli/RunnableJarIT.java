package dev.lockwarden.admin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.ui.Browser;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/** The shaded {@code lockwarden-admin.jar} run as users run it: {@code java -jar} in a child JVM. */
class RunnableJarIT {
    @RegisterExtension
    /** Five for the Redlock test; the others use the first one. */
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    static final String LISTENING = "Lockwarden admin listening on (http://127\\.0\\.0\\.1:\\d+/)";

    @TempDir
    Path dir;

    @Test
    void helpListsTheOptionsAndTheSubcommand() throws Exception {
        try (JarProcess jar = new JarProcess(JarProcess.JAR, dir, null, "--help")) {
            assertEquals(0, jar.exitCode(Duration.ofSeconds(30)));
            for (String s : new String[] {
                "--redis", "--redlock", "--cluster", "--port", "--bind", "--users", "hash-password", "LOCKWARDEN_REDIS"
            }) {
                assertTrue(jar.output().contains(s), s + " missing in:\n" + jar.output());
            }
        }
    }

    @Test
    void hashPasswordHashesOneLineOfStdin() throws Exception {
        try (JarProcess jar = new JarProcess(JarProcess.JAR, dir, "s3cret-Pw\n", "hash-password")) {
            assertEquals(0, jar.exitCode(Duration.ofSeconds(30)), jar.output());
            String hash = jar.output().strip();
            assertTrue(PasswordHasher.matches("s3cret-Pw".toCharArray(), hash), hash);
            assertTrue(!PasswordHasher.matches("other".toCharArray(), hash));
            assertTrue(!hash.contains("s3cret"), hash);
        }
    }

    @Test
    void badOptionsFailWithTheReason() throws Exception {
        try (JarProcess jar = new JarProcess(JarProcess.JAR, dir, null, "--redis", REDIS.uri(), "--port", "http")) {
            assertEquals(2, jar.exitCode(Duration.ofSeconds(30)));
            assertTrue(jar.output().contains("--port"), jar.output());
        }
        try (JarProcess jar =
                new JarProcess(JarProcess.JAR, dir, null, "--redis", REDIS.uri(), "--redlock", REDIS.uri())) {
            assertEquals(2, jar.exitCode(Duration.ofSeconds(30)));
            assertTrue(
                    jar.output().contains("choose one of --redis, --redlock, --cluster and --sentinel"), jar.output());
        }
    }

    @Test
    void firstRunWritesTheGeneratedPasswordToAPrivateFileAndTheOperatorChoosesTheirOwnAtTheFirstLogin()
            throws Exception {
        Path jarCopy = Files.copy(JarProcess.JAR, dir.resolve("lockwarden-admin.jar"));
        Path usersFile = dir.resolve("lockwarden-admin-users.properties");
        Path passwordFile = dir.resolve("lockwarden-admin-initial-password.txt").toAbsolutePath();
        try (JarProcess jar = new JarProcess(jarCopy, dir, null, "--redis", REDIS.uri(), "--port", "0");
                Browser browser = new Browser()) {
            Matcher listening = jar.await(LISTENING, Duration.ofSeconds(60));
            assertEquals(
                    passwordFile.toString(),
                    jar.await("^  password: in (\\S+) \\(mode 600\\)$", Duration.ofSeconds(1))
                            .group(1));
            assertTrue(jar.output().contains("user:     operator"), jar.output());
            String password = Files.readString(passwordFile).strip();
            assertFalse(
                    jar.output().contains(password), "not on stdout, which is not a terminal here: " + jar.output());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(usersFile)));
            assertFalse(Files.readString(usersFile).contains(password));
            browser.base(listening.group(1));
            browser.login("operator", password);
            browser.waitFor(By.id("new-password"));
            browser.driver.get(listening.group(1) + "locks");
            browser.waitFor(By.id("new-password")); // no view before the new password
            browser.driver.findElement(By.cssSelector("#new-password input")).sendKeys("operators-own-pw");
            browser.driver.findElement(By.cssSelector("#repeat-password input")).sendKeys("operators-own-pw");
            browser.driver.findElement(By.id("set-password")).click();
            browser.waitFor(By.id("locks"));
            assertFalse(Files.exists(passwordFile), "the generated password is gone");
        }
        try (JarProcess jar = new JarProcess(jarCopy, dir, null, "--redis", REDIS.uri(), "--port", "0");
                Browser browser = new Browser()) {
            Matcher listening = jar.await(LISTENING, Duration.ofSeconds(60));
            assertFalse(jar.output().contains("password:"), jar.output());
            assertTrue(jar.output().contains(usersFile.getFileName().toString()), jar.output());
            browser.base(listening.group(1));
            browser.login("operator", "operators-own-pw");
            browser.waitFor(By.id("locks"));
        }
    }

    @Test
    void javaDashJarServesTheLoginPageAndLetsAConfiguredUserIn() throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "ops = OPERATOR:" + PasswordHasher.hash("ops-password".toCharArray(), 10_000) + "\n");
        long t0 = System.nanoTime();
        try (JarProcess jar = new JarProcess(
                        JarProcess.JAR, dir, null, "--redis", REDIS.uri(), "--port", "0", "--users", users.toString());
                Browser browser = new Browser()) {
            Matcher m = jar.await(LISTENING, Duration.ofSeconds(60));
            System.out.printf(
                    "java -jar lockwarden-admin.jar listening after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            browser.base(m.group(1));
            browser.open("login");
            browser.waitFor(By.cssSelector("vaadin-login-form"));
            browser.login("ops", "ops-password");
            browser.waitFor(By.id("locks"));
            assertTrue(browser.driver.findElement(By.id("signed-in")).getText().contains("ops (OPERATOR)"));
        }
    }

    @Test
    void javaDashJarOverRedlockListsALockHeldOnTheFiveNodes() throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "ops = VIEWER:" + PasswordHasher.hash("ops-password".toCharArray(), 10_000) + "\n");
        String[] nodes = REDIS.uris().toArray(String[]::new);
        try (LockManager holder = LockManager.builder()
                        .redlock(nodes)
                        .application("billing")
                        .build();
                LockHandle held = holder.acquire(
                        "jar:redlock", LockOptions.ttl(Duration.ofSeconds(120)).autoRefresh(false));
                JarProcess jar = new JarProcess(
                        JarProcess.JAR,
                        dir,
                        null,
                        "--redlock",
                        String.join(",", nodes),
                        "--port",
                        "0",
                        "--users",
                        users.toString());
                Browser browser = new Browser()) {
            browser.base(jar.await(LISTENING, Duration.ofSeconds(60)).group(1));
            browser.login("ops", "ops-password");
            browser.waitFor(By.cssSelector("b.lock-name[data-lock='jar:redlock']"));
            assertEquals(
                    List.of(Long.toString(held.fencingToken())),
                    browser.displayedTexts(By.cssSelector("span.fence[data-lock='jar:redlock']")),
                    jar.output());
            assertEquals(
                    List.of("billing"),
                    browser.displayedTexts(By.cssSelector("span.holder-app[data-lock='jar:redlock']")));
            String shownNodes = browser.displayedTexts(By.cssSelector("span.nodes[data-lock='jar:redlock']"))
                    .get(0);
            assertTrue(shownNodes.split(", ").length >= 3, "read from a majority of the five nodes: " + shownNodes);
        }
    }
}
