package dev.lockwarden.examples.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.examples.BuiltArtifacts;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The case the agent exists for, run as examples/README.md runs it: the legacy web app (embedded Tomcat,
 * servlet → PaymentService.charge(id), its own Jedis 5 in WEB-INF/lib and Byte Buddy 1.14 on the server class
 * path) in two JVMs with {@code -javaagent:lock-agent.jar=config=examples/legacy-app/lockwarden-agent.conf};
 * 24 concurrent POSTs for 6 payments, spread over both. With the agent every payment is charged exactly once;
 * without it (the control), some twice.
 */
@Timeout(180)
class LegacyAppTest {
    private static final Duration BOOT = Duration.ofSeconds(60);
    private static final int PAYMENTS = 6;
    private static final int REQUESTS_PER_JVM = 2;

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @Test
    void withTheAgentEachPaymentIsChargedExactlyOnce() throws Exception {
        String agent = "-javaagent:" + BuiltArtifacts.agentJar() + "=config=" + BuiltArtifacts.legacyAgentConfig();
        List<LegacyAppJvm> servers = startTwo(List.of(agent, "-Dlockwarden.redis=" + redis.uri()));
        try {
            List<String> answers = payConcurrently(servers);
            assertEquals(PAYMENTS * REQUESTS_PER_JVM * 2, answers.size());
            for (int i = 0; i < PAYMENTS; i++) {
                assertEquals(
                        "1", redis.node(0).command("GET", "charges:TX-" + i), "TX-" + i + " charged once\n" + answers);
            }
            assertEquals(PAYMENTS, answers.stream().filter("charged"::equals).count(), answers.toString());
            assertEquals(
                    PAYMENTS * (2 * REQUESTS_PER_JVM - 1),
                    answers.stream().filter("already charged"::equals).count(),
                    answers.toString());
            for (LegacyAppJvm s : servers) {
                assertTrue(
                        s.stderr()
                                        .contains(
                                                "instrumented com.acme.legacy.web.PaymentService#charge(java.lang.String) ("
                                                        + BuiltArtifacts.legacyAgentConfig() + ":5) in class loader")
                                && s.stderr().contains("(org.apache.catalina.loader.ParallelWebappClassLoader)"),
                        "instrumented inside Tomcat's web-app class loader\n" + s);
                assertHostLibraries(s);
            }
        } finally {
            servers.forEach(LegacyAppJvm::close);
        }
    }

    @Test
    void withoutTheAgentPaymentsAreChargedTwice() throws Exception {
        List<LegacyAppJvm> servers = startTwo(List.of());
        try {
            List<String> answers = payConcurrently(servers);
            long charges = 0;
            for (int i = 0; i < PAYMENTS; i++) {
                charges += Long.parseLong(redis.node(0).command("GET", "charges:TX-" + i));
            }
            System.out.println("control without agent: " + charges + " charges for " + PAYMENTS + " payments");
            assertTrue(
                    charges > PAYMENTS,
                    "the control must double-charge: " + charges + " charges for " + PAYMENTS + " payments\n"
                            + answers);
            servers.forEach(LegacyAppTest::assertHostLibraries);
        } finally {
            servers.forEach(LegacyAppJvm::close);
        }
    }

    @Test
    void theAgentsDryRunFindsTheConfiguredMethodInTheWebAppJar() throws Exception {
        Path webappJar = BuiltArtifacts.legacyAppJar()
                .getParent()
                .resolveSibling("webapp")
                .resolve("legacy-app-webapp.jar");
        Process check = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-jar",
                        BuiltArtifacts.agentJar().toString(),
                        "check",
                        BuiltArtifacts.legacyAgentConfig().toString(),
                        webappJar.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, check.exitValue(), out);
        assertTrue(
                out.contains(
                                "lockwarden-agent.conf:5: com.acme.legacy.web.PaymentService#charge(java.lang.String) → 1 method(s)")
                        && out.contains("key \"payment:{0}\"")
                        && out.strip().endsWith("OK"),
                out);
    }

    private static void assertHostLibraries(LegacyAppJvm server) {
        String out = server.stdout();
        assertTrue(
                out.matches(
                        "(?s).*HOST-BYTEBUDDY com.acme.legacy.server.Generated from \\S*byte-buddy-1\\.14\\.18\\.jar.*"),
                "the host's own Byte Buddy 1.14 works\n" + server);
        assertTrue(
                out.matches(
                        "(?s).*WEBAPP-JEDIS \\S*WEB-INF/lib/jedis-5\\.2\\.0\\.jar loader=org.apache.catalina.loader.ParallelWebappClassLoader.*"),
                "the web app's own Jedis 5 works\n" + server);
    }

    /** Every payment POSTed {@link #REQUESTS_PER_JVM} times to each JVM, all released at once; returns the bodies. */
    private List<String> payConcurrently(List<LegacyAppJvm> servers) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (LegacyAppJvm s : servers) {
            ports.add(s.awaitPort(BOOT));
        }
        int total = PAYMENTS * REQUESTS_PER_JVM * servers.size();
        ExecutorService pool = Executors.newFixedThreadPool(total);
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .build(); // its own executor: pool threads block in send()
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<String>> calls = new ArrayList<>();
        try {
            for (int i = 0; i < PAYMENTS; i++) {
                for (int r = 0; r < REQUESTS_PER_JVM; r++) {
                    for (int port : ports) {
                        HttpRequest post = HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + port + "/pay?id=TX-" + i))
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build();
                        calls.add(CompletableFuture.supplyAsync(
                                () -> {
                                    try {
                                        start.await();
                                        HttpResponse<String> resp =
                                                http.send(post, HttpResponse.BodyHandlers.ofString());
                                        return resp.statusCode() == 200
                                                ? resp.body()
                                                : "HTTP " + resp.statusCode() + " " + resp.body();
                                    } catch (Exception e) {
                                        return "FAILED " + e;
                                    }
                                },
                                pool));
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

    /** Two servers, as two nodes of a cluster: {@code java [agent] -Dlegacy.redis=… -jar legacy-app.jar}. */
    private static List<LegacyAppJvm> startTwo(List<String> agent) throws Exception {
        List<String> args = new ArrayList<>(agent);
        args.add("-Dlegacy.redis=127.0.0.1:" + redis.node(0).port());
        List<LegacyAppJvm> servers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            servers.add(LegacyAppJvm.start(args));
        }
        return servers;
    }
}
