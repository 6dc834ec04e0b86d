package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.TestCertificates;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sentinel with a password (sentinel and master alike) and Sentinel over TLS: one master and one
 * sentinel each, on loopback. The sentinel URI's credentials and scheme reach the sentinel and the master.
 */
@Timeout(60)
class SentinelSecurityTest {
    private static final String PASSWORD = "s3ntinel-pw";
    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(10));
    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
    }

    private <T extends AutoCloseable> T started(T t) {
        started.add(t);
        return t;
    }

    private RedisNode sentinel(Path dir, List<String> conf, List<String> args) throws Exception {
        Path file = dir.resolve("sentinel.conf");
        Files.writeString(file, String.join("\n", conf) + "\n");
        List<String> all = new ArrayList<>(List.of("--sentinel"));
        all.addAll(args);
        return started(new RedisNode(RedisBinary.detect(), file, all)).start();
    }

    /** A sentinel monitoring {@code master} (which has {@link #PASSWORD}), started with {@code args}. */
    private RedisNode sentinelOfPasswordMaster(RedisNode master, List<String> args) throws Exception {
        return sentinel(
                Files.createTempDirectory("lockwarden-sentinel-auth"),
                List.of(
                        "sentinel monitor mymaster 127.0.0.1 " + master.port() + " 1",
                        "sentinel auth-pass mymaster " + PASSWORD),
                args);
    }

    private static LockManager.Builder builder(String uri) {
        return LockManager.builder()
                .sentinel("mymaster", uri)
                .timeout(Duration.ofSeconds(1))
                .shutdownHook(false);
    }

    @Test
    void aclUserAndPasswordReachTheSentinelAndTheMaster() throws Exception {
        RedisNode master = started(new RedisNode("--requirepass", PASSWORD)).start();
        RedisNode sentinel = sentinelOfPasswordMaster(master, List.of("--requirepass", PASSWORD));
        String uri = "redis://default:" + PASSWORD + "@127.0.0.1:" + sentinel.port();
        try (LockManager locks = builder(uri).build();
                LockHandle h = locks.acquire("acl:one", OPTS)) {
            assertEquals("1", master.command("EXISTS", "lock:{acl:one}"));
            assertFalse(locks.describeRedis().contains(PASSWORD), locks.describeRedis());
            assertTrue(h.isHeld());
        }
        // the controls: a wrong password and none are refused at build, never quoting the password
        for (String bad : List.of(
                "redis://default:wrong-" + PASSWORD + "@127.0.0.1:" + sentinel.port(),
                "redis://127.0.0.1:" + sentinel.port())) {
            LockStoreException e =
                    assertThrows(LockStoreException.class, () -> builder(bad).build());
            assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
            assertTrue(e.getMessage().contains("cannot name the master"), e.getMessage());
        }
    }

    /**
     * Sentinels without a password, the master with one, the URI with the password but no user (so a
     * client that sent it to the sentinels would send {@code AUTH <password>}, which they refuse).
     */
    @Test
    void passwordlessSentinelsAreNotSentTheMastersPassword() throws Exception {
        RedisNode master = started(new RedisNode("--requirepass", PASSWORD)).start();
        RedisNode sentinel = sentinelOfPasswordMaster(master, List.of());
        // what a client sending the password to this sentinel gets
        RuntimeException refused = assertThrows(RuntimeException.class, () -> sentinel.command("AUTH", PASSWORD));
        assertTrue(refused.getMessage().contains("without any password configured"), refused.getMessage());

        String uri = "redis://:" + PASSWORD + "@127.0.0.1:" + sentinel.port();
        try (LockManager locks = builder(uri).build();
                LockHandle h = locks.acquire("nopass:one", OPTS)) {
            assertTrue(h.isHeld());
            assertEquals("1", master.command("EXISTS", "lock:{nopass:one}"));
            assertFalse(locks.describeRedis().contains(PASSWORD), locks.describeRedis());
        }
        // the control: the master still needs the password, so a URI without it is refused at build
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> builder("redis://127.0.0.1:" + sentinel.port()).build());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    }

    @Test
    void redissReachesTheSentinelAndTheMasterOverTls() throws Exception {
        RedisBinary binary = RedisBinary.detect();
        assumeTrue(TestCertificates.canCreate(binary), "needs Debian's TLS-enabled redis-server and openssl");
        Path dir = Files.createTempDirectory("lockwarden-sentinel-tls");
        TestCertificates certs = TestCertificates.create(dir, "trust-pass", "key-pass");
        List<String> tls = List.of(
                "tls-cert-file " + certs.serverCertificate(),
                "tls-key-file " + certs.serverKey(),
                "tls-ca-cert-file " + certs.caCertificate(),
                "tls-auth-clients no");
        int masterTls = TestCertificates.freePort();
        List<String> masterArgs = new ArrayList<>(List.of("--tls-port", Integer.toString(masterTls)));
        for (String line : tls) { // the same directives as arguments: --tls-cert-file FILE ...
            masterArgs.add("--" + line.substring(0, line.indexOf(' ')));
            masterArgs.add(line.substring(line.indexOf(' ') + 1));
        }
        started(new RedisNode(binary, masterArgs)).start();
        int sentinelTls = TestCertificates.freePort();
        List<String> conf = new ArrayList<>(List.of(
                "sentinel monitor mymaster 127.0.0.1 " + masterTls + " 1",
                "tls-port " + sentinelTls,
                "tls-replication yes"));
        conf.addAll(tls);
        sentinel(dir, conf, List.of());

        try (LockManager locks = builder("rediss://127.0.0.1:" + sentinelTls)
                        .tls(trusting(certs.caCertificate()))
                        .build();
                LockHandle h = locks.acquire("tls:one", OPTS)) {
            assertTrue(h.isHeld());
            assertTrue(locks.describeRedis().endsWith("master 127.0.0.1:" + masterTls), locks.describeRedis());
        }
        // the control: plain text to the sentinel's TLS port fails at build
        assertThrows(
                LockStoreException.class,
                () -> builder("redis://127.0.0.1:" + sentinelTls).build());
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
}
