package dev.lockwarden.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for TLS tests against a real {@code redis-server --tls-auth-clients yes}, made the way docs/tls.md
 * makes them: a throw-away CA, a server certificate for {@code 127.0.0.1} and a client certificate signed by it (all
 * by {@code openssl}, valid one day), the client's key in a PKCS12 key store and the CA in a PKCS12 trust store
 * made by the running JDK's {@code keytool}.
 *
 * <pre>
 * assumeTrue(TestCertificates.canCreate(binary));
 * TestCertificates certs = TestCertificates.create(dir, "trust-pw", "key-pw");
 * int tlsPort = TestCertificates.freePort();
 * RedisNode node = new RedisNode(binary, certs.redisArgs(tlsPort)).start();   // plain port and TLS port
 * </pre>
 *
 * @param dir            where the files are
 * @param trustStore     {@code trust.p12}: the CA as entry {@code redis-ca}, opened with the trust password
 * @param clientKeyStore {@code client.p12}: the client key and certificate as entry {@code client}, opened with the key password
 */
public record TestCertificates(Path dir, Path trustStore, Path clientKeyStore) {
    private static final Path OPENSSL = Path.of("/usr/bin/openssl");
    private static final long TOOL_TIMEOUT_SECONDS = 30;

    /**
     * {@return true where the files can be made and used: {@code openssl} is installed and the Redis
     * binary has TLS (Debian's has, the embedded one has not)}
     *
     * @param binary the redis-server that is to serve TLS
     */
    public static boolean canCreate(RedisBinary binary) {
        return !binary.isEmbedded() && Files.isExecutable(OPENSSL);
    }

    /**
     * Makes every file in {@code dir}.
     *
     * @param dir an existing directory for the files
     * @param trustPassword the password of the trust store holding the CA
     * @param keyPassword the password of the client's key store
     * @return the files made
     * @throws IllegalStateException a tool failed (its output is in the message) or did not finish within 30 s
     */
    public static TestCertificates create(Path dir, String trustPassword, String keyPassword) {
        openssl(
                dir,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=Lockwarden Test CA",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem");
        signed(dir, "server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1");
        signed(dir, "client", "/CN=lockwarden-client", "extendedKeyUsage=clientAuth");
        openssl(
                dir,
                "pkcs12",
                "-export",
                "-in",
                "client.pem",
                "-inkey",
                "client.key",
                "-name",
                "client",
                "-out",
                "client.p12",
                "-passout",
                "pass:" + keyPassword);
        run(
                dir,
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-importcert",
                        "-noprompt",
                        "-alias",
                        "redis-ca",
                        "-file",
                        "ca.pem",
                        "-keystore",
                        "trust.p12",
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        trustPassword));
        return new TestCertificates(dir, dir.resolve("trust.p12"), dir.resolve("client.p12"));
    }

    /** {@return the CA certificate (PEM)} */
    public Path caCertificate() {
        return dir.resolve("ca.pem");
    }

    /** {@return the server's certificate and key (PEM) for {@code redis-server --tls-cert-file / --tls-key-file}} */
    public Path serverCertificate() {
        return dir.resolve("server.pem");
    }

    /** {@return see {@link #serverCertificate()}} */
    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /**
     * {@return {@code redis-server} arguments for TLS on {@code tlsPort} that demand a client
     * certificate signed by the CA}
     *
     * @param tlsPort the port the server listens on for TLS
     */
    public List<String> redisArgs(int tlsPort) {
        return List.of(
                "--tls-port",
                Integer.toString(tlsPort),
                "--tls-cert-file",
                serverCertificate().toString(),
                "--tls-key-file",
                serverKey().toString(),
                "--tls-ca-cert-file",
                caCertificate().toString(),
                "--tls-auth-clients",
                "yes");
    }

    /** {@return a loopback port free at the time of the call (for the TLS port next to the node's own)} */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port: " + e, e);
        }
    }

    private static void signed(Path dir, String name, String subject, String extension) {
        openssl(
                dir,
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                subject,
                "-keyout",
                name + ".key",
                "-out",
                name + ".csr");
        try {
            Files.writeString(dir.resolve(name + ".ext"), extension + "\n");
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + dir.resolve(name + ".ext") + ": " + e, e);
        }
        openssl(
                dir,
                "x509",
                "-req",
                "-in",
                name + ".csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "1",
                "-extfile",
                name + ".ext",
                "-out",
                name + ".pem");
    }

    private static void openssl(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of(OPENSSL.toString()));
        cmd.addAll(List.of(args));
        run(dir, cmd);
    }

    private static void run(Path dir, List<String> cmd) {
        Path log = dir.resolve("tool.log");
        String shown = shown(cmd);
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!p.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(shown + " did not finish within " + TOOL_TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        shown + " failed (exit " + p.exitValue() + "): " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + shown + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + cmd.get(0), e);
        }
    }

    /** The command for messages, store passwords replaced by {@code ***}. */
    static String shown(List<String> cmd) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < cmd.size(); i++) {
            boolean password =
                    i > 0 && cmd.get(i - 1).equals("-storepass") || cmd.get(i).startsWith("pass:");
            shown.add(password ? "***" : cmd.get(i));
        }
        return String.join(" ", shown);
    }
}
