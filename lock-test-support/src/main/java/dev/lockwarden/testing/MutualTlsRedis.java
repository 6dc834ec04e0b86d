package dev.lockwarden.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: one {@code redis-server} for a test class that speaks TLS on a second port and demands a client
 * certificate ({@code --tls-auth-clients yes}), with the {@link TestCertificates} it trusts (made in a temp dir before
 * the class). The class is skipped where they cannot be made ({@link TestCertificates#canCreate}). The node's plain
 * port ({@link RedisNode#port()}) stays open for checks from the test itself.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final MutualTlsRedis tls = new MutualTlsRedis("trust-pw", "key-pw");
 * // tls.uri() = rediss://127.0.0.1:PORT, tls.certificates().trustStore() / clientKeyStore(), tls.node()
 * </pre>
 */
public final class MutualTlsRedis implements BeforeAllCallback, AfterAllCallback {
    private final String trustPassword;
    private final String keyPassword;
    private TestCertificates certificates;
    private RedisNode node;
    private int tlsPort;

    /**
     * Makes the certificates and starts a TLS server that demands a client certificate.
     *
     * @param trustPassword the password of the trust store holding the CA
     * @param keyPassword the password of the client's key store
     */
    public MutualTlsRedis(String trustPassword, String keyPassword) {
        this.trustPassword = trustPassword;
        this.keyPassword = keyPassword;
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) throws IOException {
        RedisBinary binary = RedisBinary.detect();
        Assumptions.assumeTrue(
                TestCertificates.canCreate(binary),
                "needs Debian's TLS-enabled redis-server and openssl (.ci/run installs redis-server)");
        certificates =
                TestCertificates.create(Files.createTempDirectory("lockwarden-mtls"), trustPassword, keyPassword);
        tlsPort = TestCertificates.freePort();
        node = new RedisNode(binary, certificates.redisArgs(tlsPort)).start();
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (node != null) {
            node.close();
            node = null;
        }
    }

    /** {@return the certificates and stores the server and its clients use} */
    public synchronized TestCertificates certificates() {
        return certificates;
    }

    /** {@return where the certificates are; free for the test's own files too} */
    public synchronized Path dir() {
        return certificates.dir();
    }

    /** {@return the server process (plain port, commands)} */
    public synchronized RedisNode node() {
        return node;
    }

    /** {@return {@code rediss://127.0.0.1:<tls port>}} */
    public synchronized String uri() {
        return "rediss://127.0.0.1:" + tlsPort;
    }
}
