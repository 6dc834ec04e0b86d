package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stores open with their passwords and hold a client certificate that the CA in the trust store signed. */
class TestCertificatesTest {
    @TempDir
    Path dir;

    @Test
    void storesOpenWithTheirPasswordsAndTheClientIsSignedByTheTrustedCa() throws Exception {
        assumeTrue(TestCertificates.canCreate(RedisBinary.detect()), "needs openssl and a TLS-enabled redis-server");
        TestCertificates certs = TestCertificates.create(dir, "trust-pw", "key-pw");
        KeyStore trust = load(certs.trustStore(), "trust-pw");
        KeyStore keys = load(certs.clientKeyStore(), "key-pw");
        assertTrue(trust.isCertificateEntry("redis-ca"));
        assertTrue(keys.isKeyEntry("client"));
        X509Certificate client = (X509Certificate) keys.getCertificate("client");
        client.verify(trust.getCertificate("redis-ca").getPublicKey());
        assertEquals("CN=lockwarden-client", client.getSubjectX500Principal().getName());
        assertTrue(certs.redisArgs(7000)
                .containsAll(java.util.List.of("--tls-port", "7000", "--tls-auth-clients", "yes")));
        assertTrue(Files.isRegularFile(certs.serverKey()) && Files.isRegularFile(certs.serverCertificate()));
    }

    @Test
    void aFailingToolIsNamedInTheError() {
        assumeTrue(TestCertificates.canCreate(RedisBinary.detect()), "needs openssl");
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> TestCertificates.create(dir.resolve("missing-dir"), "trust-pw", "key-pw"));
        assertTrue(e.getMessage().contains("openssl req"), e.getMessage());
    }

    @Test
    void commandsInErrorsHideStorePasswords() {
        String shown = TestCertificates.shown(
                java.util.List.of("keytool", "-storepass", "trust-pw", "-passout", "pass:key-pw"));
        assertEquals("keytool -storepass *** -passout ***", shown);
    }

    private static KeyStore load(Path file, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password.toCharArray());
        }
        return ks;
    }
}
