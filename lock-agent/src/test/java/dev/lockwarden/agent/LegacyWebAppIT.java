package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.lockwarden.testing.RedisServerExtension;

/**
 * The case the agent exists for: a legacy web app (embedded Tomcat, servlet → PaymentService.charge(id), its own
 * Jedis 5 in WEB-INF/lib and Byte Buddy 1.14 on the server class path) in two JVMs; concurrent POSTs for the same
 * payment to both. With the agent every payment is charged exactly once; without it, some twice.
 */
@Timeout(180)
class LegacyWebAppIT {
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final int PAYMENTS = 6;
    private static final int REQUESTS_PER_JVM = 2;

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @TempDir
    Path dir;

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @Test
    void withTheAgentEachPaymentIsChargedExactlyOnce() throws Exception {
        Path config = Files.writeString(dir.resolve("payments.conf"), "redis = " + redis.uri() + "\n"
                + "com.acme.legacy.web.PaymentService#charge(java.lang.String) key=\"payment:{0}\" wait=20s\n");
        List<ChildJvm> servers = startTwo(List.of(ChildJvm.javaagent(config)));
        try {
            List<String> answers = payConcurrently(servers);
            for (int i = 0; i < PAYMENTS; i++) {
                assertEquals("1", redis.node(0).command("GET", "charges:TX-" + i), "TX-" + i + " charged once\n" + answers);
            }
            assertEquals(PAYMENTS, answers.stream().filter("charged"::equals).count(), answers.toString());
            assertEquals(PAYMENTS * (2 * REQUESTS_PER_JVM - 1), answers.stream().filter("already charged"::equals).count(), answers.toString());
            for (ChildJvm s : servers) {
                assertTrue(s.stderr().contains("instrumented com.acme.legacy.web.PaymentService#charge(java.lang.String) ("
                        + config + ":2) in class loader") && s.stderr().contains("(org.apache.catalina.loader.ParallelWebappClassLoader)"),
                        "instrumented inside Tomcat's web-app class loader\n" + s);
                assertHostLibraries(s);
            }
        } finally {
            servers.forEach(ChildJvm::close);
        }
    }

    @Test
    void withoutTheAgentPaymentsAreChargedTwice() throws Exception {
        List<ChildJvm> servers = startTwo(List.of());
        try {
            List<String> answers = payConcurrently(servers);
            long charges = 0;
            for (int i = 0; i < PAYMENTS; i++) {
                charges += Long.parseLong(redis.node(0).command("GET", "charges:TX-" + i));
            }
            System.out.println("control without agent: " + charges + " charges for " + PAYMENTS + " payments");
            assertTrue(charges > PAYMENTS, "the control must double-charge: " + charges + " charges for " + PAYMENTS
                    + " payments\n" + answers);
            servers.forEach(LegacyWebAppIT::assertHostLibraries);
        } finally {
            servers.forEach(ChildJvm::close);
        }
    }

    private static void assertHostLibraries(ChildJvm server) {
        String out = server.stdout();
        assertTrue(out.matches("(?s).*HOST-BYTEBUDDY com.acme.legacy.server.Generated from \\S*byte-buddy-1\\.14\\.18\\.jar.*"),
                "the host's own Byte Buddy 1.14 works\n" + server);
        assertTrue(out.matches("(?s).*WEBAPP-JEDIS \\S*WEB-INF/lib/jedis-5\\.2\\.0\\.jar loader=org.apache.catalina.loader.ParallelWebappClassLoader.*"),
                "the web app's own Jedis 5 works\n" + server);
    }

    /** Every payment POSTed {@link #REQUESTS_PER_JVM} times to each JVM, all released at once; returns the bodies. */
    private List<String> payConcurrently(List<ChildJvm> servers) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (ChildJvm s : servers) {
            ports.add(Integer.parseInt(s.awaitLine("LISTENING ", RUN).substring("LISTENING ".length())));
        }
        int total = PAYMENTS * REQUESTS_PER_JVM * servers.size();
        ExecutorService pool = Executors.newFixedThreadPool(total);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(); // its own executor: pool threads block in send()
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<String>> calls = new ArrayList<>();
        try {
            for (int i = 0; i < PAYMENTS; i++) {
                for (int r = 0; r < REQUESTS_PER_JVM; r++) {
                    for (int port : ports) {
                        HttpRequest post = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/pay?id=TX-" + i))
                                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build();
                        calls.add(CompletableFuture.supplyAsync(() -> {
                            try {
                                start.await();
                                HttpResponse<String> resp = http.send(post, HttpResponse.BodyHandlers.ofString());
                                return resp.statusCode() == 200 ? resp.body() : "HTTP " + resp.statusCode() + " " + resp.body();
                            } catch (Exception e) {
                                return "FAILED " + e;
                            }
                        }, pool));
                    }
                }
            }
            start.countDown();
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            return calls.stream().map(CompletableFuture::join).collect(Collectors.toList());
        } finally {
            pool.shutdownNow();
        }
    }

    private List<ChildJvm> startTwo(List<String> agent) throws IOException {
        String classPath = serverClassPath();
        List<String> args = new ArrayList<>(agent);
        args.add("-Dlegacy.redis.port=" + redis.node(0).port());
        List<ChildJvm> servers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            servers.add(ChildJvm.startMain(args, classPath, "com.acme.legacy.server.LegacyWebServer",
                    ChildJvm.testClasses().toString(), legacyLib().resolve("webapp").toString()));
        }
        return servers;
    }

    /** The launcher class, Tomcat and Byte Buddy 1.14 — no other test classes, no Lockwarden. */
    private String serverClassPath() throws IOException {
        Path launcher = Files.createDirectories(dir.resolve("launcher/com/acme/legacy/server"));
        try (Stream<Path> classes = Files.list(ChildJvm.testClasses().resolve("com/acme/legacy/server"))) {
            for (Path c : classes.toList()) {
                Files.copy(c, launcher.resolve(c.getFileName()));
            }
        }
        try (Stream<Path> jars = Files.list(legacyLib().resolve("server"))) {
            return dir.resolve("launcher") + File.pathSeparator
                    + jars.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
        }
    }

    private static Path legacyLib() {
        Path lib = Path.of(System.getProperty("legacy.lib", "target/legacy-lib"));
        if (!Files.isDirectory(lib.resolve("webapp"))) {
            throw new IllegalStateException(lib + " is missing: run with mvn verify (pre-integration-test copies the jars)");
        }
        return lib;
    }
}
