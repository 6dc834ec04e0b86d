package dev.lockwarden.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Passwords with the characters base64 and generated secrets contain ({@code / @ : + = %}) are
 * parsed exactly and never appear in exception messages, {@code toString()} or log output
 * (System.Logger, captured through its default java.util.logging backend).
 */
class SecretsTest {
    /** The server's password: '/', '@', ':', '+', '=' and a '%' that is not an escape. */
    private static final String SECRET = "Zm9v/YmFy@b:az+q%zz==";

    private static final String WRONG = "d3Jvbmc/@cGFzcw+==";
    private static final List<String> SECRETS = List.of(SECRET, WRONG, "p/ss", "p@ss", "a@b/c@d", "x+y/z==");

    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3).withArgs("--requirepass", SECRET);

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            StringBuilder sb = new StringBuilder(String.valueOf(r.getMessage()));
            if (r.getParameters() != null) {
                for (Object p : r.getParameters()) {
                    sb.append(' ').append(p);
                }
            }
            if (r.getThrown() != null) {
                StringWriter w = new StringWriter();
                r.getThrown().printStackTrace(new PrintWriter(w));
                sb.append(' ').append(w);
            }
            logged.add(sb.toString());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private final Logger root = Logger.getLogger("");
    private Level rootLevel;

    @BeforeEach
    void captureLogs() {
        rootLevel = root.getLevel();
        root.setLevel(Level.ALL);
        capture.setLevel(Level.ALL);
        root.addHandler(capture);
    }

    @AfterEach
    void stopCapture() {
        root.removeHandler(capture);
        root.setLevel(rootLevel);
    }

    private static void assertNoSecret(String where, String text) {
        for (String s : SECRETS) {
            assertFalse(text.contains(s), where + " shows a password: " + text);
            for (String part : s.split(":")) { // nor the part of one before or after a ':'
                assertFalse(part.length() >= 6 && text.contains(part), where + " shows part of a password: " + text);
            }
        }
    }

    @Test
    void passwordsWithSlashAtColonPlusAreParsedExactlyAndMasked() {
        for (String pw : SECRETS) {
            for (String text : List.of(
                    "redis://" + pw + "@cache:6380/2",
                    "redis://alice:" + pw + "@cache:6380/2",
                    "rediss://:" + pw + "@cache:6380/2")) {
                RedisUri u = RedisUri.parse(text);
                assertNoSecret("toString", u.toString());
                assertNoSecret("mask", RedisUri.mask(text));
                if (pw.contains(":") && text.startsWith("redis://" + pw)) {
                    continue; // password-only form: a ':' splits user and password, as in every URI (use redis://:pw@)
                }
                assertEquals(pw, u.password(), text);
                assertEquals("cache", u.host(), text);
                assertEquals(6380, u.port(), text);
                assertEquals(2, u.database(), text);
                assertNoSecret("toString", u.toString());
                assertNoSecret("mask", RedisUri.mask(text));
                assertTrue(RedisUri.mask(text).endsWith("***@cache:6380/2"), RedisUri.mask(text));
            }
            // percent-encoded form decodes to the same password
            String encoded = URLEncoder.encode(pw, StandardCharsets.UTF_8); // no spaces in these, so no '+' either
            assertEquals(pw, RedisUri.parse("redis://u:" + encoded + "@h").password());
            assertNoSecret("mask", RedisUri.mask("redis://u:" + encoded + "@h"));
        }
        assertEquals(
                "redis://alice:***@h1:1,rediss://***@h2:2",
                RedisUri.mask("redis://alice:a@b/c@h1:1,rediss://x/y@z@h2:2"));
        assertEquals("redis://h:1", RedisUri.mask("redis://h:1"));
    }

    @Test
    void aSettingsValueIsNotShownByItsToString() {
        for (String pw : SECRETS) {
            Settings settings = new Settings(
                    name -> Settings.REDIS.equals(name) ? "redis://alice:" + pw + "@cache:6380" : null,
                    java.util.Map.of("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", pw));
            Settings.Source uri = settings.raw(Settings.REDIS).orElseThrow();
            Settings.Source store =
                    settings.raw(Settings.TLS_KEY_STORE_PASSWORD).orElseThrow();
            assertTrue(uri.value().contains(pw), "the value itself is still there for the code that needs it");
            assertNoSecret("Settings.Source.toString", uri.toString());
            assertNoSecret("Settings.Source.toString", store.toString());
            assertTrue(uri.toString().contains("system property lockwarden.redis"), uri.toString());
        }
    }

    @Test
    void badUrisNeverQuoteThePassword() {
        for (String pw : SECRETS) {
            for (String text : List.of(
                    "redis://u:" + pw + "@host:70000",
                    "redis://u:" + pw + "@host:1/abc",
                    "http://u:" + pw + "@host:1",
                    "redis://u:" + pw + "@",
                    "redis://u:" + pw + "@bad host:1")) {
                IllegalArgumentException e = assertThrows(
                        IllegalArgumentException.class,
                        () -> LockManager.builder().redis(text).build(),
                        text);
                assertNoSecret("message for " + RedisUri.mask(text), e.getMessage());
            }
        }
    }

    @Test
    void realServerWithSuchAPasswordWorksAndWrongOrUnreachableNeverShowsIt() throws IOException {
        String base = "127.0.0.1:" + REDIS.node(0).port();
        try (LockManager m = LockManager.builder()
                        .redis("redis://:" + SECRET + "@" + base)
                        .build();
                LockHandle h = m.acquire("secret:raw", LockOptions.defaults())) {
            assertTrue(h.isHeld());
            assertNoSecret("handle", h.toString());
            assertNoSecret("manager", m.toString());
        }
        String encoded = URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
        try (LockManager m = LockManager.builder()
                .redis("redis://default:" + encoded + "@" + base)
                .build()) {
            assertTrue(m.tryAcquire("secret:encoded", LockOptions.defaults()).isPresent());
        }
        LockStoreException wrong = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis("redis://default:" + WRONG + "@" + base)
                        .build());
        assertNoSecret("wrong password", stackTrace(wrong));
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        LockStoreException down = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis("redis://u:" + SECRET + "@127.0.0.1:" + closed)
                        .timeout(Duration.ofMillis(300))
                        .build());
        assertTrue(down.getMessage().contains("127.0.0.1:" + closed), down.getMessage());
        assertNoSecret("unreachable", stackTrace(down));
        for (String line : logged) {
            assertNoSecret("log", line);
        }
    }

    @Test
    void logsOfANodeDownAndOfFailingRefreshesNeverShowThePassword() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String[] uris = {
            "redis://:" + SECRET + "@127.0.0.1:" + REDIS.node(0).port(),
            "redis://:" + SECRET + "@127.0.0.1:" + REDIS.node(1).port(),
            "redis://:" + SECRET + "@127.0.0.1:" + closed
        };
        try (LockManager m = LockManager.builder()
                .redlock(uris)
                .timeout(Duration.ofMillis(300))
                .build()) {
            assertTrue(logged.stream().anyMatch(l -> l.contains("node(s) down")), "no warning captured: " + logged);
            LockHandle h = m.acquire("secret:redlock", LockOptions.ttl(Duration.ofMillis(900)));
            REDIS.node(1).pause(); // refreshes now miss the quorum: the watchdog warns, then the lock is lost
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (h.isHeld() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
            } finally {
                REDIS.node(1).resume();
            }
            assertFalse(h.isHeld());
            assertTrue(logged.stream().anyMatch(l -> l.contains("refresh")), "no refresh warning captured: " + logged);
            assertNoSecret("inspector", m.inspector().toString());
        }
        assertFalse(logged.isEmpty());
        for (String line : logged) {
            assertNoSecret("log", line);
        }
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
