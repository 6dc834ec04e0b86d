package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.TestCertificates;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rediss://} against a real TLS redis-server with a self-signed certificate made by openssl.
 * Needs a TLS-enabled redis-server (Debian's is; CI installs it) and openssl: skipped only when the
 * machine has neither, e.g. on the embedded-binary fallback.
 */
class TlsTest {
    private static Path dir;
    private static TestCertificates certs;
    private static RedisNode node;
    private static int tlsPort;

    @BeforeAll
    static void startTlsRedis() throws Exception {
        RedisBinary binary = RedisBinary.detect();
        assumeTrue(
                TestCertificates.canCreate(binary),
                "needs Debian's TLS-enabled redis-server and openssl (.ci/run installs redis-server)");
        dir = Files.createTempDirectory("lockwarden-tls");
        certs = TestCertificates.create(dir, "trust-pass", "key-pass");
        tlsPort = TestCertificates.freePort();
        // server certificate signed by the test CA; no client certificate demanded here (TlsSettingsTest does that)
        node = new RedisNode(
                        binary,
                        List.of(
                                "--tls-port",
                                Integer.toString(tlsPort),
                                "--tls-cert-file",
                                certs.serverCertificate().toString(),
                                "--tls-key-file",
                                certs.serverKey().toString(),
                                "--tls-ca-cert-file",
                                certs.caCertificate().toString(),
                                "--tls-auth-clients",
                                "no"))
                .start();
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static SSLSocketFactory trusting(Path cert) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        try (InputStream in = Files.newInputStream(cert)) {
            ks.setCertificateEntry(
                    "redis", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx.getSocketFactory();
    }

    @Test
    void locksOverTls() throws Exception {
        try (LockManager locks = LockManager.builder()
                        .redis("rediss://127.0.0.1:" + tlsPort)
                        .tls(trusting(certs.caCertificate()))
                        .application("tls")
                        .build();
                LockHandle h = locks.acquire("tls:one", LockOptions.ttl(Duration.ofSeconds(5)))) {
            assertTrue(h.isHeld());
            assertTrue(locks.inspector().get("tls:one").isPresent());
        }
    }

    @Test
    void untrustedCertificateOrPlainTextToTlsPortFailAtBuild() {
        LockStoreException untrusted = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis("rediss://127.0.0.1:" + tlsPort)
                        .timeout(Duration.ofSeconds(1))
                        .build());
        assertTrue(untrusted.getMessage().contains("127.0.0.1:" + tlsPort), untrusted.getMessage());
        LockStoreException plain = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder()
                        .redis("redis://127.0.0.1:" + tlsPort)
                        .timeout(Duration.ofSeconds(1))
                        .build());
        assertFalse(plain.getMessage().isBlank());
    }
}
