package dev.lockwarden.examples.jakarta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.PayaraMicroServer;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * This module's WAR (target/payments.war, as {@code mvn package} builds it) deployed on a real Payara Micro 6
 * (Jakarta EE 10, from Maven Central, a child JVM) against a real redis-server: 8 simultaneous
 * {@code POST /payments/TX-1/charge} charge the card once; the same through the unlocked control charge it
 * more than once.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PayaraWarIT {
    private static final Duration BOOT_LIMIT = Duration.ofSeconds(150);
    private static final int AT_ONCE = 8;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private static PayaraMicroServer payara;
    private static String base;
    private static LockManager outside;

    @BeforeAll
    static void deploy() throws Exception {
        Path target = Path.of(System.getProperty("it.target", "target"));
        payara = PayaraMicroServer.start(
                Path.of(System.getProperty("it.payara.jar", "target/payara/payara-micro.jar")),
                Path.of(System.getProperty("it.war", "target/payments.war")),
                "shop",
                target,
                "payara-war.log",
                "-Dlockwarden.redis=" + redis.uri(),
                "-Dlockwarden.application=jakarta-payments");
        base = payara.url() + "payments/";
        assertEquals("status=NONE cardCharges=0", payara.awaitServing("payments/TX-0", BOOT_LIMIT));
        outside =
                LockManager.builder().redis(redis.uri()).application("outside").build();
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (outside != null) {
            outside.close();
        }
        if (payara != null) {
            payara.close();
        }
    }

    @Test
    void simultaneousChargesOfOnePaymentChargeTheCardOnce() throws Exception {
        assertEquals("created TX-1", send("PUT", "TX-1"));
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < AT_ONCE; i++) {
            answers.add(sendAsync("POST", "TX-1/charge"));
        }
        LockInfo held = awaitLock("payment:TX-1");
        List<String> bodies = new ArrayList<>();
        for (CompletableFuture<String> a : answers) {
            bodies.add(a.get(60, TimeUnit.SECONDS));
        }

        assertEquals(1, bodies.stream().filter(b -> b.startsWith("charged CN-")).count(), bodies.toString());
        String confirmation = bodies.stream()
                .filter(b -> b.startsWith("charged "))
                .findFirst()
                .orElseThrow()
                .substring("charged ".length());
        assertEquals(
                AT_ONCE - 1,
                bodies.stream()
                        .filter(("already charged " + confirmation)::equals)
                        .count(),
                "every other caller gets the stored receipt: " + bodies);
        assertEquals("status=CHARGED cardCharges=1", send("GET", "TX-1"));

        assertEquals(LockSource.CDI, held.source(), held.toString());
        assertEquals("jakarta-payments", held.holder().application(), held.toString());
        assertEquals(Payments.class.getName() + "#charge", held.method(), held.toString());
        assertTrue(outside.inspector().get("payment:TX-1").isEmpty(), "released after the last commit");
    }

    @Test
    void controlWithoutTheLockChargesTheCardMoreThanOnce() throws Exception {
        assertEquals("created TX-2", send("PUT", "TX-2"));
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < AT_ONCE; i++) {
            answers.add(sendAsync("POST", "TX-2/charge-unlocked"));
        }
        for (CompletableFuture<String> a : answers) {
            a.get(60, TimeUnit.SECONDS);
        }
        String status = send("GET", "TX-2");
        int charges = Integer.parseInt(status.replaceAll(".*cardCharges=(\\d+)", "$1"));
        System.out.println("control without the lock: " + charges + " card charges for one payment");
        assertTrue(charges > 1, "the control must double-charge, or the locked run proves nothing: " + status);
    }

    @Test
    void chargingAnUnknownPaymentIsRefusedWithItsFix() throws Exception {
        HttpResponse<String> r = HTTP.send(request("POST", "TX-404/charge"), HttpResponse.BodyHandlers.ofString());
        assertEquals(409, r.statusCode(), r.body());
        assertEquals("no payment TX-404: create it first (PUT /payments/TX-404)", r.body());
    }

    private static LockInfo awaitLock(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Optional<LockInfo> info = outside.inspector().get(name);
            if (info.isPresent()) {
                return info.get();
            }
            Thread.sleep(5);
        }
        throw new AssertionError(name + " never appeared in Redis; server log:\n" + payara.logTail());
    }

    private static HttpRequest request(String method, String path) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static String send(String method, String path) throws Exception {
        return sendAsync(method, path).get(60, TimeUnit.SECONDS);
    }

    private static CompletableFuture<String> sendAsync(String method, String path) {
        return HTTP.sendAsync(request(method, path), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> {
                    if (r.statusCode() != 200) {
                        throw new AssertionError(
                                "HTTP " + r.statusCode() + " for " + method + " " + path + ": " + r.body());
                    }
                    return r.body();
                });
    }
}
