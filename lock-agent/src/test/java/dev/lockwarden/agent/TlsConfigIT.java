package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.MutualTlsRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code tls.*} lines of the agent's config file against a real redis-server that demands client certificates
 * ({@code --tls-auth-clients yes}), certificates made by openssl ({@link MutualTlsRedis}, as docs/tls.md makes them).
 * The agent locks over TLS with the file's stores; a wrong password stops the JVM before main naming the line;
 * passwords never appear in the output. Skipped only without a TLS-enabled redis-server or openssl.
 */
class TlsConfigIT {
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final String TRUST_PASSWORD = "trust-Secret/1@x+";
    private static final String KEY_PASSWORD = "key-Secret/2@y+";

    @RegisterExtension
    static final MutualTlsRedis tls = new MutualTlsRedis(TRUST_PASSWORD, KEY_PASSWORD);

    @Test
    void theConfigFilesTlsStoresAreUsedForTheLocks() throws Exception {
        Path config = config("ok.conf", KEY_PASSWORD, true);
        try (ChildJvm app = ChildJvm.start(
                List.of(
                        ChildJvm.javaagent(config),
                        "-Dlegacy.redis.port=" + tls.node().port()),
                "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("PLAIN report=42"), "report() ran under its lock over TLS\n" + app);
            assertNoPassword(app);
        }
    }

    @Test
    void withoutTheClientCertificateTheServerRefusesAndTheCallFails() throws Exception {
        Path config = config("nokey.conf", null, true);
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertTrue(app.waitFor(RUN) != 0, app.toString());
            assertFalse(app.stdout().contains("PLAIN"), "the body never runs unlocked\n" + app);
            // a store error (NodeException is the LockStoreException that names the node), never "busy"
            assertTrue(
                    app.stderr().contains("LockStoreException") || app.stderr().contains("store.NodeException"),
                    app.toString());
            assertFalse(app.stderr().contains("LockNotAcquiredException"), app.toString());
        }
    }

    @Test
    void aWrongKeyStorePasswordStopsTheJvmBeforeMainNamingTheLine() throws Exception {
        Path config = config("wrong.conf", "not-the-" + KEY_PASSWORD, true);
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
            assertTrue(
                    app.stderr()
                            .contains(config + ":4: the password in lockwarden.tls.key-store-password does not open "
                                    + tls.certificates().clientKeyStore() + " (" + config
                                    + ":4 tls.key-store): set that store's correct password"),
                    app.toString());
            assertFalse(
                    app.toString().contains("not-the-" + KEY_PASSWORD), "the wrong password is never printed\n" + app);
            assertNoPassword(app);
        }
    }

    @Test
    void tlsStoresFromSystemPropertiesAndEnvironmentAreOpenedBeforeMain() throws Exception {
        Path config = config("sysprops.conf", null, false);
        List<String> stores = List.of(
                ChildJvm.javaagent(config),
                "-Dlegacy.redis.port=" + tls.node().port(),
                "-Dlockwarden.tls.trust-store=" + tls.certificates().trustStore(),
                "-Dlockwarden.tls.trust-store-password=" + TRUST_PASSWORD,
                "-Dlockwarden.tls.key-store=" + tls.certificates().clientKeyStore());
        try (ChildJvm app = ChildJvm.start(
                stores, Map.of("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", "not-the-" + KEY_PASSWORD), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), "main never ran\n" + app);
            assertTrue(
                    app.stderr()
                            .contains(config + ": the password in lockwarden.tls.key-store-password does not open "
                                    + tls.certificates().clientKeyStore()
                                    + " (system property lockwarden.tls.key-store): set that store's correct password"
                                    + " (TLS stores are opened when the agent starts)"),
                    app.toString());
            assertFalse(
                    app.toString().contains("not-the-" + KEY_PASSWORD), "the wrong password is never printed\n" + app);
            assertNoPassword(app);
        }
        try (ChildJvm app =
                ChildJvm.start(stores, Map.of("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", KEY_PASSWORD), "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("PLAIN report=42"), "with the right password it locks over TLS\n" + app);
            assertNoPassword(app);
        }
    }

    @Test
    void tlsNamesAreCheckedLikeEveryOtherSetting() throws Exception {
        Path config = Files.writeString(
                tls.dir().resolve("typo.conf"),
                "redis = " + tls.uri() + "\ntls.keystore = /x.p12\n"
                        + "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"\n");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(
                    app.stderr()
                            .contains(config + ":2: unknown setting 'tls.keystore' (did you mean 'tls.key-store'?)"),
                    app.toString());
        }
    }

    private static void assertNoPassword(ChildJvm app) {
        assertFalse(app.toString().contains(KEY_PASSWORD) || app.toString().contains(TRUST_PASSWORD), app.toString());
    }

    /** rediss URI, the trust store, and (if {@code keyPassword} is set) the client key store on line 4. */
    private static Path config(String name, String keyPassword, boolean trust) throws Exception {
        List<String> lines = new ArrayList<>(List.of("redis = " + tls.uri()));
        if (trust) {
            lines.add("tls.trust-store = " + tls.certificates().trustStore());
            lines.add("tls.trust-store-password = " + TRUST_PASSWORD);
        }
        if (keyPassword != null) {
            lines.add("tls.key-store = " + tls.certificates().clientKeyStore());
            lines.add("tls.key-store-password = " + keyPassword);
            lines.add("tls.key-store-type = PKCS12");
        }
        lines.add("com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"");
        return Files.writeString(tls.dir().resolve(name), String.join("\n", lines) + "\n");
    }
}
