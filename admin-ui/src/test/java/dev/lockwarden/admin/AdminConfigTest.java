package dev.lockwarden.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.config.Settings;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AdminConfigTest {
    private final Properties sys = new Properties();

    AdminConfigTest() {
        sys.setProperty("lockwarden.admin.user.ops", "OPERATOR:" + PasswordHasher.hash("pw".toCharArray(), 10_000));
    }

    @Test
    void defaultsAreLoopback8080() {
        AdminConfig c = AdminConfig.load(settings(Map.of(), Map.of()), sys);
        assertEquals("127.0.0.1", c.bind().getHostAddress());
        assertEquals(8080, c.port());
        assertEquals(50, c.pageSize());
    }

    @Test
    void sessionAndMarkSettingsHaveDefaultsAndAreRead() {
        AdminConfig d = AdminConfig.load(settings(Map.of(), Map.of()), sys);
        assertEquals(java.time.Duration.ofMinutes(30), d.sessionTimeout());
        assertEquals(java.time.Duration.ofMinutes(10), d.longHeld());
        assertEquals(false, d.behindTlsProxy());
        AdminConfig c = AdminConfig.load(
                settings(
                        Map.of("lockwarden.admin.behind-tls-proxy", "true"),
                        Map.of("LOCKWARDEN_ADMIN_SESSION_TIMEOUT", "5m", "LOCKWARDEN_ADMIN_LONG_HELD", "1h")),
                sys);
        assertEquals(java.time.Duration.ofMinutes(5), c.sessionTimeout());
        assertEquals(java.time.Duration.ofHours(1), c.longHeld());
        assertEquals(true, c.behindTlsProxy());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(settings(Map.of("lockwarden.admin.behind-tls-proxy", "maybe"), Map.of()), sys));
        assertTrue(
                e.getMessage().contains("lockwarden.admin.behind-tls-proxy")
                        && e.getMessage().contains("true or false"),
                e.getMessage());
    }

    @Test
    void searchBudgetIsThirtySecondsReadFromItsSettingAndAboveZero() {
        assertEquals(
                java.time.Duration.ofSeconds(30),
                AdminConfig.load(settings(Map.of(), Map.of()), sys).searchBudget());
        assertEquals(
                java.time.Duration.ofSeconds(5),
                AdminConfig.load(settings(Map.of(), Map.of("LOCKWARDEN_ADMIN_SEARCH_BUDGET", "5s")), sys)
                        .searchBudget());
        assertEquals(
                java.time.Duration.ofMinutes(1),
                AdminConfig.load(settings(Map.of("lockwarden.admin.search-budget", "1m"), Map.of()), sys)
                        .searchBudget());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(settings(Map.of(), Map.of("LOCKWARDEN_ADMIN_SEARCH_BUDGET", "0s")), sys));
        assertTrue(
                e.getMessage().startsWith("environment variable LOCKWARDEN_ADMIN_SEARCH_BUDGET='0s' is not above zero")
                        && e.getMessage().contains("--search-budget")
                        && e.getMessage().contains("e.g. 30s"),
                e.getMessage());
        AdminConfig d = AdminConfig.load(settings(Map.of(), Map.of()), sys);
        assertEquals(
                java.time.Duration.ofMillis(1),
                d.withSearchBudget(java.time.Duration.ofMillis(1)).searchBudget());
        e = assertThrows(IllegalArgumentException.class, () -> d.withSearchBudget(java.time.Duration.ofSeconds(-1)));
        assertTrue(
                e.getMessage().contains("lockwarden.admin.search-budget")
                        && e.getMessage().contains("not above zero"),
                e.getMessage());
    }

    @Test
    void environmentIsRead() {
        AdminConfig c = AdminConfig.load(settings(Map.of(), Map.of("LOCKWARDEN_ADMIN_PORT", "0")), sys);
        assertEquals(0, c.port());
    }

    @Test
    void errorsNameTheSettingAndTheFix() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(settings(Map.of("lockwarden.admin.port", "http"), Map.of()), sys));
        assertTrue(
                e.getMessage().contains("lockwarden.admin.port")
                        && e.getMessage().contains("whole number"),
                e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(settings(Map.of("lockwarden.admin.port", "70000"), Map.of()), sys));
        assertTrue(e.getMessage().contains("0..65535"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(settings(Map.of("lockwarden.admin.bind", "8.8.8.8"), Map.of()), sys));
        assertTrue(
                e.getMessage().contains("lockwarden.admin.bind")
                        && e.getMessage().contains("loopback"),
                e.getMessage());
    }

    @Test
    void aKeyPrefixReachingIntoLockwardensOwnKeysIsRefused() {
        for (String prefix : new String[] {"lockwarden:jvm:", "lockwarden:activity:", "lockwarden:", "lock", "l"}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> AdminConfig.load(settings(Map.of("lockwarden.key-prefix", prefix), Map.of()), sys),
                    prefix);
            assertTrue(
                    e.getMessage().contains("lockwarden.key-prefix='" + prefix + "' overlaps")
                            && e.getMessage().contains("e.g. lock:"),
                    e.getMessage());
        }
        AdminConfig.load(settings(Map.of("lockwarden.key-prefix", "locks:"), Map.of()), sys);
        AdminConfig.load(settings(Map.of("lockwarden.key-prefix", "lockwarden-app:"), Map.of()), sys);
    }

    @Test
    void trustedProxiesAndThePublicUrlAreReadAndCheckedWithTheirSetting() {
        AdminConfig d = AdminConfig.load(settings(Map.of(), Map.of()), sys);
        assertEquals(false, d.trustedProxies().any());
        assertEquals(java.util.Optional.empty(), d.publicUrl());
        AdminConfig c = AdminConfig.load(
                settings(
                        Map.of(
                                "lockwarden.admin.trusted-proxy",
                                "127.0.0.1/32, ::1",
                                "lockwarden.admin.public-url",
                                "https://locks.example.com/"),
                        Map.of()),
                sys);
        assertTrue(c.trustedProxies().trusts("127.0.0.1") && c.trustedProxies().trusts("0:0:0:0:0:0:0:1"));
        assertEquals("locks.example.com", c.publicUrl().orElseThrow().getHost());
        for (String bad : new String[] {"proxy.local", "10.0.0.0/33", "10.0.0.0/x", ","}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> AdminConfig.load(settings(Map.of("lockwarden.admin.trusted-proxy", bad), Map.of()), sys),
                    bad);
            assertTrue(
                    e.getMessage().contains("lockwarden.admin.trusted-proxy")
                            && e.getMessage().contains("127.0.0.1/32"),
                    e.getMessage());
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> AdminConfig.load(
                        settings(Map.of(), Map.of("LOCKWARDEN_ADMIN_PUBLIC_URL", "locks.example.com")), sys));
        assertTrue(
                e.getMessage().contains("LOCKWARDEN_ADMIN_PUBLIC_URL")
                        && e.getMessage().contains("https://"),
                e.getMessage());
    }

    private static Settings settings(Map<String, String> props, Map<String, String> env) {
        Map<String, String> p = new HashMap<>(props);
        return new Settings(p::get, env);
    }
}
