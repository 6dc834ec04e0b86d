package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.config.Settings;
import dev.lockwarden.config.TlsSettings;
import dev.lockwarden.testing.MutualTlsRedis;
import dev.lockwarden.testing.RedisNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code lockwarden.tls.*} stores against a real redis-server that demands client certificates
 * ({@code --tls-auth-clients yes}); the CA, server and client certificates are made by openssl ({@link MutualTlsRedis}).
 * Skipped, like {@link TlsTest}, only without a TLS-enabled redis-server or openssl.
 */
class TlsSettingsTest {
    private static final String TRUST_PASSWORD = "trust-Secret/1@x";
    private static final String KEY_PASSWORD = "key-Secret/2@y";

    @RegisterExtension
    static final MutualTlsRedis tls = new MutualTlsRedis(TRUST_PASSWORD, KEY_PASSWORD);

    private static Path dir;
    private static RedisNode node;
    private static String uri;

    @BeforeAll
    static void trustStoreAsDocsTlsMakesIt() throws Exception {
        dir = tls.dir();
        node = tls.node();
        uri = tls.uri();
        // the trust store the way docs/tls.md makes it: JDK keytool importing the CA
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.certificates().trustStore())) {
            trust.load(in, TRUST_PASSWORD.toCharArray());
        }
        assertTrue(trust.isCertificateEntry("redis-ca"), "keytool made a trusted CA entry");
    }

    @AfterEach
    void clearProperties() {
        for (String p : List.of(
                TlsSettings.TRUST_STORE,
                TlsSettings.TRUST_STORE_PASSWORD,
                TlsSettings.KEY_STORE,
                TlsSettings.KEY_STORE_PASSWORD,
                TlsSettings.KEY_STORE_TYPE,
                TlsSettings.TRUST_STORE_TYPE)) {
            System.clearProperty(p);
        }
    }

    private static void trustStoreProperties() {
        System.setProperty(TlsSettings.TRUST_STORE, dir.resolve("trust.p12").toString());
        System.setProperty(TlsSettings.TRUST_STORE_PASSWORD, TRUST_PASSWORD);
    }

    @Test
    void trustStoreAndClientKeyStoreFromSystemPropertiesLockAndRelease() {
        trustStoreProperties();
        System.setProperty(TlsSettings.KEY_STORE, dir.resolve("client.p12").toString());
        System.setProperty(TlsSettings.KEY_STORE_PASSWORD, KEY_PASSWORD);
        try (LockManager locks = LockManager.builder()
                .redis(uri)
                .application("mtls")
                .shutdownHook(false)
                .build()) {
            LockHandle h = locks.acquire("mtls:one", LockOptions.ttl(Duration.ofSeconds(5)));
            assertTrue(h.isHeld());
            assertTrue(locks.inspector().get("mtls:one").isPresent());
            h.close();
            assertFalse(locks.inspector().get("mtls:one").isPresent(), "released over mutual TLS");
            assertTrue(node.command("EXISTS", "lock:mtls:one").contains("0"), node.command("EXISTS", "lock:mtls:one"));
        }
    }

    @Test
    void sameSettingsFromTheEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("LOCKWARDEN_TLS_TRUST_STORE", dir.resolve("trust.p12").toString());
        env.put("LOCKWARDEN_TLS_TRUST_STORE_PASSWORD", TRUST_PASSWORD);
        env.put("LOCKWARDEN_TLS_KEY_STORE", dir.resolve("client.p12").toString());
        env.put("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", KEY_PASSWORD);
        env.put("LOCKWARDEN_TLS_KEY_STORE_TYPE", "PKCS12");
        try (LockManager locks = LockManager.builder()
                        .settings(new Settings(p -> null, env))
                        .redis(uri)
                        .shutdownHook(false)
                        .build();
                LockHandle h = locks.acquire("mtls:env", LockOptions.ttl(Duration.ofSeconds(5)))) {
            assertTrue(h.isHeld());
        }
    }

    @Test
    void withoutClientCertificateTheServerRefusesAndThatIsAStoreFailureNotBusy() {
        trustStoreProperties();
        LockStoreException atBuild = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis(uri)
                        .timeout(Duration.ofSeconds(1))
                        .shutdownHook(false)
                        .build());
        assertTrue(atBuild.getMessage().contains(uri.substring("rediss://".length())), atBuild.getMessage());
        try (LockManager locks = LockManager.builder()
                .redis(uri)
                .timeout(Duration.ofSeconds(1))
                .verifyOnBuild(false)
                .shutdownHook(false)
                .build()) {
            LockException e = assertThrows(
                    LockException.class,
                    () -> locks.acquire(
                            "mtls:refused",
                            LockOptions.ttl(Duration.ofSeconds(5)).waitUpTo(Duration.ofMillis(500))));
            assertTrue(e instanceof LockStoreException, "refused handshake must be a store failure, got " + e);
        }
    }

    @Test
    void wrongKeyStorePasswordNamesTheSettingAndNoPassword() {
        trustStoreProperties();
        System.setProperty(TlsSettings.KEY_STORE, dir.resolve("client.p12").toString());
        String wrong = "wrong-Pass/3@z";
        System.setProperty(TlsSettings.KEY_STORE_PASSWORD, wrong);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis(uri).shutdownHook(false).build());
        String all = messages(e);
        assertTrue(
                e.getMessage().contains("lockwarden.tls.key-store-password")
                        && e.getMessage().contains("does not open"),
                e.getMessage());
        for (String secret : List.of(wrong, KEY_PASSWORD, TRUST_PASSWORD)) {
            assertFalse(all.contains(secret), all);
        }
    }

    @Test
    void missingFileAndMissingPasswordNameTheirSetting() {
        System.setProperty(TlsSettings.TRUST_STORE, dir.resolve("nope.p12").toString());
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis(uri).shutdownHook(false).build());
        assertTrue(
                missing.getMessage().contains("system property lockwarden.tls.trust-store")
                        && missing.getMessage().contains("no such file"),
                missing.getMessage());
        System.clearProperty(TlsSettings.TRUST_STORE);
        System.setProperty(TlsSettings.KEY_STORE, dir.resolve("client.p12").toString());
        IllegalArgumentException noPassword = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis(uri).shutdownHook(false).build());
        assertTrue(noPassword.getMessage().contains("lockwarden.tls.key-store-password"), noPassword.getMessage());
    }

    @Test
    void explicitSocketFactoryWinsOverTheSettings() throws Exception {
        // A key-store setting that would fail is never read when tls(...) is given: the explicit
        // factory (trust only, no client certificate) is used, so the server refuses the handshake.
        System.setProperty(TlsSettings.KEY_STORE, dir.resolve("client.p12").toString());
        System.setProperty(TlsSettings.KEY_STORE_PASSWORD, "wrong");
        Map<String, String> env = Map.of(
                "LOCKWARDEN_TLS_TRUST_STORE",
                dir.resolve("trust.p12").toString(),
                "LOCKWARDEN_TLS_TRUST_STORE_PASSWORD",
                TRUST_PASSWORD);
        javax.net.ssl.SSLSocketFactory trustOnly =
                TlsSettings.socketFactory(new Settings(p -> null, env)).orElseThrow();
        assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis(uri)
                        .tls(trustOnly)
                        .timeout(Duration.ofSeconds(1))
                        .shutdownHook(false)
                        .build());
    }

    @Test
    void plainUrisIgnoreTheTlsSettings() {
        System.setProperty(TlsSettings.TRUST_STORE, dir.resolve("nope.p12").toString());
        try (LockManager locks = LockManager.builder()
                        .redis(node.uri())
                        .shutdownHook(false)
                        .build();
                LockHandle h = locks.acquire("mtls:plain", LockOptions.ttl(Duration.ofSeconds(5)))) {
            assertTrue(h.isHeld());
        }
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c).append('\n');
        }
        return b.toString();
    }
}
