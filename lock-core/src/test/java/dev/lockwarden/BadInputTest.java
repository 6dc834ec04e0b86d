package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.config.RedisUri;
import dev.lockwarden.config.Settings;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every mistake a user can make gets a clear message naming the value and the fix. */
class BadInputTest {
    @RegisterExtension
    static final RedisServerExtension SECURED = RedisServerExtension.nodes(1).withArgs("--requirepass", "s3cret-pw");

    @Test
    void ttlMustBePositiveAndSane() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockOptions.ttl(Duration.ZERO));
        assertTrue(e.getMessage().contains("PT0S") && e.getMessage().contains("positive"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LockOptions.ttl(Duration.ofMillis(-5)));
        assertThrows(NullPointerException.class, () -> LockOptions.ttl(null));
        e = assertThrows(IllegalArgumentException.class, () -> LockOptions.ttl(Duration.ofDays(30)));
        assertTrue(e.getMessage().contains("autoRefresh"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> LockOptions.defaults().waitUpTo(Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void malformedUrisNameTheProblem() {
        assertMessage("localhost:6379", "must start with redis://");
        assertMessage("http://localhost:6379", "must start with redis://");
        assertMessage("redis://", "host:port");
        assertMessage("redis://:6379", "no host");
        assertMessage("redis://localhost:70000", "70000");
        assertMessage("redis://localhost:6379/abc", "database 'abc'");
        assertMessage("redis:// bad host", "malformed");
        assertMessage("  ", "blank");
    }

    private static void assertMessage(String uri, String expected) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis(uri).build());
        assertTrue(e.getMessage().contains(expected), "for " + uri + ": " + e.getMessage());
    }

    @Test
    void uriPartsAreParsedAndPasswordsNeverShown() {
        RedisUri u = RedisUri.parse("rediss://alice:p%40ss@cache.example:6380/3");
        assertEquals("cache.example", u.host());
        assertEquals(6380, u.port());
        assertEquals("alice", u.user());
        assertEquals("p@ss", u.password());
        assertEquals(3, u.database());
        assertTrue(u.tls());
        assertFalse(u.toString().contains("p@ss"));
        assertEquals("rediss://alice:***@cache.example:6380/3", u.toString());
        RedisUri p = RedisUri.parse("redis://onlypass@h");
        assertEquals("onlypass", p.password());
        assertEquals(6379, p.port());
        assertFalse(p.toString().contains("onlypass"));
        assertEquals("redis://u:***@h:1", RedisUri.mask("redis://u:secret@h:1"));
        assertEquals("redis://[::1]:6379", RedisUri.parse("redis://[::1]:6379").toString());
    }

    @Test
    void unreachableRedisIsAStoreErrorNamingTheAddressButNotThePassword() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int closed = port;
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis("redis://bob:hunter2@127.0.0.1:" + closed)
                        .timeout(Duration.ofMillis(500))
                        .build());
        assertTrue(
                e.getMessage().contains("127.0.0.1:" + closed) && e.getMessage().contains("unreachable"),
                e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void authWithPasswordAndAclUser() {
        String base = "127.0.0.1:" + SECURED.node(0).port();
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder().redis("redis://" + base).build());
        assertTrue(
                e.getMessage().toUpperCase().contains("NOAUTH")
                        || e.getMessage().contains("Authentication"),
                e.getMessage());
        e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder().redis("redis://wrong-pw@" + base).build());
        assertFalse(e.getMessage().contains("wrong-pw"), e.getMessage());
        try (LockManager m =
                        LockManager.builder().redis("redis://s3cret-pw@" + base).build();
                LockHandle h = m.acquire("auth:one", LockOptions.defaults())) {
            assertTrue(h.isHeld());
        }
        SECURED.node(0).command("ACL", "SETUSER", "locker", "on", ">locker-pw", "~*", "&*", "+@all");
        try (LockManager m = LockManager.builder()
                        .redis("redis://locker:locker-pw@" + base)
                        .build();
                LockHandle h = m.acquire("auth:acl", LockOptions.defaults())) {
            assertTrue(h.isHeld());
            assertTrue(m.inspector().get("auth:acl").isPresent());
        }
    }

    @Test
    void settingsNameTheirSource() {
        Properties props = new Properties();
        props.setProperty("lockwarden.ttl", "soon");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .settings(new Settings(props::getProperty, Map.of()))
                        .build());
        assertTrue(
                e.getMessage().contains("system property lockwarden.ttl")
                        && e.getMessage().contains("30s"),
                e.getMessage());

        Settings env =
                new Settings(k -> null, Map.of("LOCKWARDEN_REDLOCK", "redis://a", "LOCKWARDEN_CLUSTER", "redis://b"));
        e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().settings(env).build());
        assertTrue(
                e.getMessage().contains("LOCKWARDEN_REDLOCK") && e.getMessage().contains("LOCKWARDEN_CLUSTER"),
                e.getMessage());

        e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .redis("redis://localhost")
                        .fenceRetention(Duration.ofHours(1))
                        .build());
        assertTrue(e.getMessage().contains("fence retention"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .keyPrefix("a{")
                        .redis("redis://localhost")
                        .build());
        assertTrue(e.getMessage().contains("key prefix"), e.getMessage());
        for (String reserved : new String[] {"lockwarden:jvm:", "lockwarden:", "lock", ""}) {
            e = assertThrows(
                    IllegalArgumentException.class,
                    () -> LockManager.builder()
                            .keyPrefix(reserved)
                            .redis("redis://localhost")
                            .build(),
                    reserved);
            assertTrue(e.getMessage().contains("overlaps Lockwarden's own keys"), e.getMessage());
        }
    }

    @Test
    void settingsPrecedenceBuilderThenPropertyThenEnvThenDefault() {
        String uri = "redis://s3cret-pw@127.0.0.1:" + SECURED.node(0).port();
        Properties props = new Properties();
        props.setProperty("lockwarden.ttl", "45s");
        Settings s = new Settings(
                props::getProperty,
                Map.of(
                        "LOCKWARDEN_TTL",
                        "10s",
                        "LOCKWARDEN_WAIT",
                        "250ms",
                        "LOCKWARDEN_REDIS",
                        uri,
                        "LOCKWARDEN_APPLICATION",
                        "from-env"));
        try (LockManager m = LockManager.builder().settings(s).build()) {
            assertEquals(Duration.ofSeconds(45), m.defaultOptions().ttl());
            assertEquals(Duration.ofMillis(250), m.defaultOptions().waitUpTo());
            assertEquals("from-env", m.application());
        }
        try (LockManager m = LockManager.builder()
                .settings(s)
                .defaultTtl(Duration.ofSeconds(5))
                .application("explicit")
                .build()) {
            assertEquals(Duration.ofSeconds(5), m.defaultOptions().ttl());
            assertEquals("explicit", m.application());
        }
    }
}
