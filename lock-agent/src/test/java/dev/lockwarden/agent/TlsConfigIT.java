package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisNode;

/**
 * The {@code tls.*} lines of the agent's config file against a real redis-server that demands client certificates
 * ({@code --tls-auth-clients yes}), certificates made by openssl as in lock-core's TlsSettingsTest and docs/tls.md.
 * The agent locks over TLS with the file's stores; a wrong password stops the JVM before main naming the line;
 * passwords never appear in the output. Skipped only without a TLS-enabled redis-server or openssl.
 */
class TlsConfigIT {
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final String TRUST_PASSWORD = "trust-Secret/1@x+";
    private static final String KEY_PASSWORD = "key-Secret/2@y+";
    private static Path dir;
    private static RedisNode node;
    private static String uri;

    @BeforeAll
    static void startMutualTlsRedis() throws Exception {
        RedisBinary binary = RedisBinary.detect();
        assumeTrue(!binary.isEmbedded() && Files.isExecutable(Path.of("/usr/bin/openssl")),
                "needs Debian's TLS-enabled redis-server and openssl (.ci/run installs redis-server)");
        dir = Files.createTempDirectory("lockwarden-agent-mtls");
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Agent Test CA",
                "-keyout", "ca.key", "-out", "ca.pem");
        signed("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1");
        signed("client", "/CN=agent-client", "extendedKeyUsage=clientAuth");
        run("openssl", "pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-name", "client",
                "-out", "client.p12", "-passout", "pass:" + KEY_PASSWORD);
        run(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-importcert", "-noprompt", "-alias",
                "redis-ca", "-file", "ca.pem", "-keystore", "trust.p12", "-storetype", "PKCS12", "-storepass", TRUST_PASSWORD);
        int tlsPort;
        try (ServerSocket s = new ServerSocket(0)) {
            tlsPort = s.getLocalPort();
        }
        node = new RedisNode(binary, List.of("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", dir.resolve("server.pem").toString(), "--tls-key-file", dir.resolve("server.key").toString(),
                "--tls-ca-cert-file", dir.resolve("ca.pem").toString(), "--tls-auth-clients", "yes")).start();
        uri = "rediss://127.0.0.1:" + tlsPort;
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void theConfigFilesTlsStoresAreUsedForTheLocks() throws Exception {
        Path config = config("ok.conf", KEY_PASSWORD, true);
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config), "-Dlegacy.redis.port=" + node.port()), "plain")) {
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
            assertTrue(app.stderr().contains("LockStoreException") || app.stderr().contains("store.NodeException"), app.toString());
            assertFalse(app.stderr().contains("LockNotAcquiredException"), app.toString());
        }
    }

    @Test
    void aWrongKeyStorePasswordStopsTheJvmBeforeMainNamingTheLine() throws Exception {
        Path config = config("wrong.conf", "not-the-" + KEY_PASSWORD, true);
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
            assertTrue(app.stderr().contains(config + ":4: the password in lockwarden.tls.key-store-password does not open "
                    + dir.resolve("client.p12") + " (" + config + ":4 tls.key-store): set that store's correct password"), app.toString());
            assertFalse(app.toString().contains("not-the-" + KEY_PASSWORD), "the wrong password is never printed\n" + app);
            assertNoPassword(app);
        }
    }

    @Test
    void tlsStoresFromSystemPropertiesAndEnvironmentAreOpenedBeforeMain() throws Exception {
        Path config = config("sysprops.conf", null, false);
        List<String> stores = List.of(ChildJvm.javaagent(config), "-Dlegacy.redis.port=" + node.port(),
                "-Dlockwarden.tls.trust-store=" + dir.resolve("trust.p12"), "-Dlockwarden.tls.trust-store-password=" + TRUST_PASSWORD,
                "-Dlockwarden.tls.key-store=" + dir.resolve("client.p12"));
        try (ChildJvm app = ChildJvm.start(stores, Map.of("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", "not-the-" + KEY_PASSWORD), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), "main never ran\n" + app);
            assertTrue(app.stderr().contains(config + ": the password in lockwarden.tls.key-store-password does not open "
                    + dir.resolve("client.p12") + " (system property lockwarden.tls.key-store): set that store's correct password"
                    + " (TLS stores are opened when the agent starts)"), app.toString());
            assertFalse(app.toString().contains("not-the-" + KEY_PASSWORD), "the wrong password is never printed\n" + app);
            assertNoPassword(app);
        }
        try (ChildJvm app = ChildJvm.start(stores, Map.of("LOCKWARDEN_TLS_KEY_STORE_PASSWORD", KEY_PASSWORD), "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("PLAIN report=42"), "with the right password it locks over TLS\n" + app);
            assertNoPassword(app);
        }
    }

    @Test
    void tlsNamesAreCheckedLikeEveryOtherSetting() throws Exception {
        Path config = Files.writeString(dir.resolve("typo.conf"), "redis = " + uri + "\ntls.keystore = /x.p12\n"
                + "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"\n");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(app.stderr().contains(config + ":2: unknown setting 'tls.keystore' (did you mean 'tls.key-store'?)"), app.toString());
        }
    }

    private static void assertNoPassword(ChildJvm app) {
        assertFalse(app.toString().contains(KEY_PASSWORD) || app.toString().contains(TRUST_PASSWORD), app.toString());
    }

    /** rediss URI, the trust store, and (if {@code keyPassword} is set) the client key store on line 4. */
    private static Path config(String name, String keyPassword, boolean trust) throws Exception {
        List<String> lines = new ArrayList<>(List.of("redis = " + uri));
        if (trust) {
            lines.add("tls.trust-store = " + dir.resolve("trust.p12"));
            lines.add("tls.trust-store-password = " + TRUST_PASSWORD);
        }
        if (keyPassword != null) {
            lines.add("tls.key-store = " + dir.resolve("client.p12"));
            lines.add("tls.key-store-password = " + keyPassword);
            lines.add("tls.key-store-type = PKCS12");
        }
        lines.add("com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"");
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private static void signed(String name, String subject, String extension) throws Exception {
        run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", name + ".key", "-out", name + ".csr");
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n");
        run("openssl", "x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", name + ".ext", "-out", name + ".pem");
    }

    private static void run(String... cmd) throws Exception {
        Path log = dir.resolve("tool.log");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", cmd) + ": " + Files.readString(log));
    }
}
