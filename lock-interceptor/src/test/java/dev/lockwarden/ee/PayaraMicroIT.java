package dev.lockwarden.ee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.testing.PayaraMicroServer;
import dev.lockwarden.testing.RedisServerExtension;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked} on a {@code @Stateless} EJB with container-managed transactions in a real Jakarta
 * EE 10 server: Payara Micro 6 (from Maven Central, started here as a child JVM) with its embedded
 * H2 default datasource, against a real redis-server. The WAR is built with ShrinkWrap from this
 * module's jar and its runtime dependencies.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
class PayaraMicroIT {
    private static final Duration BOOT_LIMIT = Duration.ofSeconds(240);

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private static PayaraMicroServer payara;
    private static String base;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static LockManager outside;

    @BeforeAll
    static void bootServer() throws Exception {
        Path target = Path.of(System.getProperty("it.target", "target"));
        File war = target.resolve("locked-ee.war").toFile();
        WebArchive archive = ShrinkWrap.create(WebArchive.class, "locked-ee.war")
                .addClasses(Transfers.class, LockServlet.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsLibrary(new File(System.getProperty("it.interceptor.jar")));
        try (Stream<Path> libs = Files.list(Path.of(System.getProperty("it.war.lib")))) {
            libs.filter(p -> p.toString().endsWith(".jar")).forEach(p -> archive.addAsLibrary(p.toFile()));
        }
        archive.as(ZipExporter.class).exportTo(war, true);

        payara = PayaraMicroServer.start(
                Path.of(System.getProperty("it.payara.jar")),
                war.toPath(),
                "app",
                target,
                "payara-micro.log",
                "-Dlockwarden.redis=" + redis.uri(),
                "-Dlockwarden.application=payara-it");
        base = payara.url() + "op?";
        assertEquals("ok", payara.awaitServing("op?op=setup", BOOT_LIMIT));
        outside =
                LockManager.builder().redis(redis.uri()).application("outside").build();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (outside != null) {
            outside.close();
        }
        if (payara != null) {
            payara.close();
        }
    }

    @Test
    void theEjbTakesTheLockWithSourceCdiAndABusyCallerGetsLockNotAcquiredUnwrapped() throws Exception {
        CompletableFuture<String> holding = callAsync("op=hold&account=K1&millis=3000");
        LockInfo info = awaitLock("hold:K1", holding);
        assertEquals(LockSource.CDI, info.source());
        assertEquals(Transfers.class.getName() + "#hold", info.method());
        assertEquals("payara-it", info.holder().application());

        String busy = call("op=hold&account=K1&millis=0");
        assertTrue(
                busy.startsWith("busy dev.lockwarden.cdi.") && busy.endsWith("lock=hold:K1"),
                "the EJB's caller must get LockNotAcquiredException itself, not an EJBException: " + busy);
        assertEquals("held K1", holding.get(30, TimeUnit.SECONDS));

        try (LockHandle held = outside.acquire("hold:K2", LockOptions.ttl(Duration.ofSeconds(20)))) {
            String busyAgainstOtherInstance = call("op=hold&account=K2&millis=0");
            assertTrue(busyAgainstOtherInstance.startsWith("busy "), busyAgainstOtherInstance);
        }
        assertEquals(
                "held K2", call("op=hold&account=K2&millis=0"), "the same bean instance pool keeps serving after busy");
    }

    @Test
    void concurrentCallsForOneKeyDoNotOverlapAndEachReleasesOnlyAfterCommit() throws Exception {
        int calls = 6;
        call("op=reset");
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(callAsync("op=deposit&account=A&pause=150"));
        }
        Set<String> fences = new HashSet<>();
        for (CompletableFuture<String> a : answers) {
            String answer = a.get(60, TimeUnit.SECONDS);
            assertTrue(
                    answer.startsWith("fence=") && answer.endsWith("lockedAtCommit=true"),
                    "the lock must still be held at commit (beforeCompletion): " + answer);
            fences.add(answer.substring(0, answer.indexOf(' ')));
        }
        assertEquals(calls, fences.size(), "one fencing token per call");
        assertEquals("1", call("op=overlap"), "two bodies for one key overlapped");
        assertEquals(Integer.toString(calls), call("op=balance&account=A"), "every committed deposit counted");
        assertTrue(outside.inspector().get("account:A").isEmpty(), "released after the last commit");
    }

    @Test
    void controlWithoutTheLockOverlapsAndLosesDeposits() throws Exception {
        int calls = 6;
        call("op=reset");
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(callAsync("op=deposit-unlocked&account=U&pause=150"));
        }
        for (CompletableFuture<String> a : answers) {
            a.get(60, TimeUnit.SECONDS);
        }
        assertTrue(
                Integer.parseInt(call("op=overlap")) > 1, "the control must overlap, or the locked run proves nothing");
        assertTrue(Long.parseLong(call("op=balance&account=U")) < calls, "the control must lose deposits");
    }

    @Test
    void aLockLostWhileTheTransactionRunsRollsItsWriteBack() throws Exception {
        call("op=deposit&account=B&pause=0");
        assertEquals("1", call("op=balance&account=B"));

        String answer = call("op=lose&account=B");
        assertTrue(
                answer.startsWith("lost dev.lockwarden.cdi.") && answer.endsWith("lock=account:B"),
                "LockLostException reaches the caller unwrapped: " + answer);
        assertEquals("1", call("op=balance&account=B"), "the +1000 written under the lost lock was rolled back");
    }

    private static LockInfo awaitLock(String name, CompletableFuture<String> call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            var info = outside.inspector().get(name);
            if (info.isPresent()) {
                return info.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError(name + " never appeared in Redis (call: " + (call.isDone() ? call.join() : "pending")
                + "); server log:\n" + payara.logTail());
    }

    private static String call(String query) throws Exception {
        return callAsync(query).get(60, TimeUnit.SECONDS);
    }

    private static CompletableFuture<String> callAsync(String query) {
        return HTTP.sendAsync(
                        HttpRequest.newBuilder(URI.create(base + query))
                                .timeout(Duration.ofSeconds(60))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> {
                    if (r.statusCode() != 200) {
                        throw new AssertionError("HTTP " + r.statusCode() + " for " + query + ": " + r.body());
                    }
                    return r.body();
                });
    }
}
