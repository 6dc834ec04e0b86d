package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.Settings;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sentinel configuration errors, reported at build with the fix; no Redis needed. */
class SentinelConfigTest {
    private static final String SECRET = "s3cret-pw";

    @Test
    void onlyOneTopologyMayBeChosen() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis("redis://localhost:6379").sentinel("mymaster", "redis://s1:26379"));
        assertTrue(e.getMessage().contains("redis(...) and sentinel(...)"), e.getMessage());
        assertTrue(e.getMessage().contains("call only one of redis, redlock, cluster and sentinel"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .sentinel("mymaster", "redis://s1:26379")
                        .cluster("redis://c:7000"));
        assertTrue(e.getMessage().contains("sentinel(...) and cluster(...)"), e.getMessage());
        // the control: one topology alone is accepted by the builder
        LockManager.builder().sentinel("mymaster", "redis://s1:26379");
    }

    @Test
    void masterNameAndUrisAreRequired() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> LockManager.builder().sentinel(" ", "redis://s1:26379"));
        assertTrue(e.getMessage().contains("Sentinel master name is blank"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> LockManager.builder().sentinel("mymaster"));
        assertTrue(e.getMessage().contains("sentinel(...) needs at least one Redis URI"), e.getMessage());
    }

    @Test
    void sentinelUrisMustShareCredentialsAndScheme() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .sentinel("mymaster", "redis://:" + SECRET + "@s1:26379", "rediss://s2:26379")
                        .build());
        assertTrue(e.getMessage().contains("give every sentinel URI the same ones"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    @Test
    void aBadSettingNamesWhereItWasSetAndTheForm() {
        for (String bad : new String[] {
            "redis://:" + SECRET + "@s1:26379", // the master name is missing
            "mymaster@",
            "@redis://s1:26379",
            "mymaster",
        }) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> LockManager.builder().settings(property(bad)).build());
            assertTrue(e.getMessage().contains("system property lockwarden.sentinel"), e.getMessage());
            assertTrue(e.getMessage().contains("mymaster@redis://s1:26379,redis://s2:26379"), e.getMessage());
            assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .settings(new Settings(
                                n -> null, Map.of("LOCKWARDEN_SENTINEL", "mymaster@redis://:" + SECRET + "@s1:0")))
                        .build());
        assertTrue(e.getMessage().startsWith("environment variable LOCKWARDEN_SENTINEL: "), e.getMessage());
        assertTrue(e.getMessage().contains("port 0"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    @Test
    void twoTopologySettingsAreAnError() {
        Settings both = new Settings(
                n -> Settings.SENTINEL.equals(n) ? "mymaster@redis://s1:26379" : null,
                Map.of("LOCKWARDEN_REDLOCK", "redis://a:1,redis://b:2,redis://c:3"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().settings(both).build());
        assertTrue(
                e.getMessage()
                        .contains("environment variable LOCKWARDEN_REDLOCK and system property lockwarden.sentinel"),
                e.getMessage());
        assertTrue(e.getMessage().contains("choose one topology"), e.getMessage());
    }

    @Test
    void noSentinelAnsweringIsAStoreErrorWithoutThePassword() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens here once the socket is closed
        }
        String uri = "redis://app:" + SECRET + "@127.0.0.1:" + closed;
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .settings(property("mymaster@" + uri))
                        .timeout(Duration.ofMillis(300))
                        .shutdownHook(false)
                        .build());
        assertTrue(
                e.getMessage().contains("sentinel[mymaster@redis://app:***@127.0.0.1:" + closed + "]"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot name the master"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    private static Settings property(String value) {
        return new Settings(n -> Settings.SENTINEL.equals(n) ? value : null, Map.of());
    }
}
