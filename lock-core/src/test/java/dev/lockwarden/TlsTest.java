package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisNode;

/**
 * {@code rediss://} against a real TLS redis-server with a self-signed certificate made by openssl.
 * Needs a TLS-enabled redis-server (Debian's is; CI installs it) and openssl: skipped only when the
 * machine has neither, e.g. on the embedded-binary fallback.
 */
class TlsTest {
    private static Path dir;
    private static RedisNode node;
    private static int tlsPort;

    @BeforeAll
    static void startTlsRedis() throws Exception {
        RedisBinary binary = RedisBinary.detect();
        assumeTrue(!binary.isEmbedded() && Files.isExecutable(Path.of("/usr/bin/openssl")),
                "needs Debian's TLS-enabled redis-server and openssl (.ci/run installs redis-server)");
        dir = Files.createTempDirectory("lockwarden-tls");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("openssl.log").toFile()).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, Files.readString(dir.resolve("openssl.log")));
        try (ServerSocket s = new ServerSocket(0)) {
            tlsPort = s.getLocalPort();
        }
        node = new RedisNode(binary, List.of("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", dir.resolve("cert.pem").toString(), "--tls-key-file", dir.resolve("key.pem").toString(),
                "--tls-ca-cert-file", dir.resolve("cert.pem").toString(), "--tls-auth-clients", "no")).start();
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
            ks.setCertificateEntry("redis", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx.getSocketFactory();
    }

    @Test
    void locksOverTls() throws Exception {
        try (LockManager locks = LockManager.builder().redis("rediss://127.0.0.1:" + tlsPort)
                .tls(trusting(dir.resolve("cert.pem"))).application("tls").build();
             LockHandle h = locks.acquire("tls:one", LockOptions.ttl(Duration.ofSeconds(5)))) {
            assertTrue(h.isHeld());
            assertTrue(locks.inspector().get("tls:one").isPresent());
        }
    }

    @Test
    void untrustedCertificateOrPlainTextToTlsPortFailAtBuild() {
        LockStoreException untrusted = assertThrows(LockStoreException.class, () -> LockManager.builder()
                .redis("rediss://127.0.0.1:" + tlsPort).timeout(Duration.ofSeconds(1)).build());
        assertTrue(untrusted.getMessage().contains("127.0.0.1:" + tlsPort), untrusted.getMessage());
        LockStoreException plain = assertThrows(LockStoreException.class, () -> LockManager.builder()
                .redis("redis://127.0.0.1:" + tlsPort).timeout(Duration.ofSeconds(1)).build());
        assertFalse(plain.getMessage().isBlank());
    }
}
