package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.params.XAddParams;

/** Everything Lockwarden does, as a Redis user restricted to exactly the ACL of docs/acl.md. */
class AclTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final String PASSWORD = "acl-test-pw";

    private static String uri() {
        return "redis://lockwarden:" + PASSWORD + "@127.0.0.1:" + REDIS.node(0).port();
    }

    @BeforeAll
    static void createTheDocumentedUser() throws Exception {
        String line = Files.readAllLines(Path.of("..", "docs", "acl.md")).stream()
                .filter(l -> l.startsWith("ACL SETUSER lockwarden "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/acl.md has no ACL SETUSER line"));
        List<String> args = new ArrayList<>(Arrays.asList(line.split(" ")));
        args.replaceAll(a -> a.equals(">CHANGE-ME") ? ">" + PASSWORD : a);
        if (!readOnlyKeyPatterns()) { // the documented Redis 6.2 variant
            args.replaceAll(a -> a.equals("%R~lockwarden:audit") ? "~lockwarden:audit" : a);
        }
        REDIS.node(0).command(args.toArray(String[]::new));
    }

    /** Redis 7.0+ has read-only key patterns ({@code %R~}); 6.2 (the embedded fallback) does not. */
    private static boolean readOnlyKeyPatterns() {
        String info = REDIS.node(0).command("INFO", "server");
        String version = info.replaceAll("(?s).*redis_version:(\\d+)\\..*", "$1");
        return Integer.parseInt(version) >= 7;
    }

    @Test
    void lockWaitRefreshExtendInspectAndForceReleaseWithTheMinimalAcl() throws Exception {
        try (LockManager a = LockManager.builder()
                        .redis(uri())
                        .application("acl-a")
                        .shutdownHook(false)
                        .historyCycles(true)
                        .build();
                LockManager b = LockManager.builder()
                        .redis(uri())
                        .application("acl-b")
                        .shutdownHook(false)
                        .historyCycles(true)
                        .build()) {
            // lock + refresh: an auto-refreshed lock lives past several TTLs
            LockHandle h = a.acquire("acl:job", LockOptions.ttl(Duration.ofMillis(600)));
            Thread.sleep(1_500);
            assertTrue(h.isHeld(), "watchdog refresh failed under the ACL");
            // wait with pub/sub wake-up (the retry interval is too long to get there by polling)
            CountDownLatch waiting = new CountDownLatch(1);
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                waiting.countDown();
                try (LockHandle got = b.acquire(
                        "acl:job",
                        LockOptions.ttl(Duration.ofSeconds(5))
                                .waitUpTo(Duration.ofSeconds(10))
                                .retryInterval(Duration.ofSeconds(8)))) {
                    return System.nanoTime();
                }
            });
            waiting.await();
            Thread.sleep(700);
            long released = System.nanoTime();
            h.release();
            long ms = TimeUnit.NANOSECONDS.toMillis(waiter.get(10, TimeUnit.SECONDS) - released);
            assertTrue(ms < 1_000, "waiter not woken by the release message: " + ms + " ms");
            // extend, holdAtLeast
            LockHandle manual = a.acquire(
                    "acl:manual",
                    LockOptions.ttl(Duration.ofMillis(500)).autoRefresh(false).holdAtLeast(Duration.ofMillis(300)));
            assertTrue(manual.extend(Duration.ofSeconds(5)));
            // inspect: list, get, fence, events
            LockInfo info = b.inspector().get("acl:manual").orElseThrow();
            assertEquals("acl-a", info.holder().application());
            assertTrue(info.holderAlive(), "heartbeat not written under the ACL");
            assertTrue(b.inspector().list(LockFilter.all(), PageRequest.first(50)).locks().stream()
                    .anyMatch(l -> l.name().equals("acl:manual")));
            assertEquals(manual.fencingToken(), b.inspector().fenceOf("acl:manual"));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (b.inspector().events("acl:job").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertFalse(b.inspector().events("acl:job").isEmpty(), "no events recorded under the ACL");
            // force-release: the application's user may not write the audit stream, so Redis refuses the script
            // naming it before it runs, and it runs again without it: released once, in the lock's history; the
            // holder hears it on the force-released channel (SUBSCRIBE under &lock:*) at once, though its
            // validity runs for 5 s more
            String auditBefore = REDIS.node(0).command("XLEN", "lockwarden:audit");
            ForceReleaseResult r = b.inspector().forceRelease("acl:manual", "alice");
            assertTrue(r.released(), r.toString());
            long forced = System.nanoTime();
            while (manual.isHeld() && System.nanoTime() - forced < TimeUnit.SECONDS.toNanos(2)) {
                Thread.sleep(5);
            }
            assertFalse(manual.isHeld(), "the holder was not told of the force-release under the ACL");
            assertFalse(manual.extend(Duration.ofSeconds(5)));
            if (readOnlyKeyPatterns()) {
                assertEquals(
                        auditBefore,
                        REDIS.node(0).command("XLEN", "lockwarden:audit"),
                        "no audit record by an application");
            }
            assertTrue(b.inspector().events("acl:manual").stream()
                    .anyMatch(e -> e.type().equals("force-release")
                            && "alice".equals(e.fields().get("operator"))));
            b.inspector().audit(10); // reading the audit stream is allowed
        }
        // closing each manager flushed its activity counts (HINCRBY + PEXPIRE) under the ACL
        for (String app : List.of("acl-a", "acl-b")) {
            String keys = REDIS.node(0).command("KEYS", "lockwarden:activity:" + app + ":*");
            assertFalse(keys == null || keys.isEmpty(), "no activity counts of " + app + " written under the ACL");
        }
    }

    @Test
    void theUserCanTouchNothingElse() {
        try (RedisClient c = RedisClient.builder()
                .hostAndPort("127.0.0.1", REDIS.node(0).port())
                .clientConfig(DefaultJedisClientConfig.builder()
                        .user("lockwarden")
                        .password(PASSWORD)
                        .build())
                .build()) {
            assertEquals("PONG", c.ping());
            assertThrows(JedisAccessControlException.class, () -> c.set("orders:1", "x"));
            assertThrows(JedisAccessControlException.class, () -> c.get("session:42"));
            assertThrows(JedisAccessControlException.class, () -> c.flushAll());
            assertThrows(JedisAccessControlException.class, () -> c.configGet("*"));
            // the audit stream: read, but no write, trim or delete (Redis 7.0+; 6.2 cannot say read-only)
            assumeTrue(readOnlyKeyPatterns(), "Redis 6.2 has no read-only key patterns (docs/acl.md)");
            REDIS.node(0).command("XADD", "lockwarden:audit", "*", "name", "x", "operator", "dashboard");
            assertEquals(
                    1,
                    c.xrevrange("lockwarden:audit", (StreamEntryID) null, null, 10)
                            .size());
            assertThrows(
                    JedisAccessControlException.class,
                    () -> c.xadd("lockwarden:audit", XAddParams.xAddParams(), Map.of("operator", "mallory")));
            assertThrows(JedisAccessControlException.class, () -> c.del("lockwarden:audit"));
            assertThrows(JedisAccessControlException.class, () -> c.set("lockwarden:audit", "x"));
            assertEquals("1", REDIS.node(0).command("XLEN", "lockwarden:audit"));
            // control: the keys the user does own may be written
            c.xadd("lockwarden:events", XAddParams.xAddParams(), Map.of("type", "x"));
        }
    }

    /** The documented dashboard user writes the audit stream: its force-release appends the sealed record. */
    @Test
    void theDashboardUserWritesTheSealedAuditRecord() throws Exception {
        String line = Files.readAllLines(Path.of("..", "docs", "acl.md")).stream()
                .filter(l -> l.startsWith("ACL SETUSER lockwarden-admin "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/acl.md has no dashboard ACL SETUSER line"));
        List<String> args = new ArrayList<>(Arrays.asList(line.split(" ")));
        args.replaceAll(a -> a.equals(">CHANGE-ME") ? ">" + PASSWORD : a);
        REDIS.node(0).command(args.toArray(String[]::new));
        REDIS.node(0).command("DEL", "lockwarden:audit");
        byte[] key = new byte[32];
        key[0] = 7;
        AuditSigner signer = AuditSigner.of(key);
        try (LockManager app = LockManager.builder()
                        .redis(uri())
                        .application("app")
                        .shutdownHook(false)
                        .build();
                LockManager dashboard = LockManager.builder()
                        .redis("redis://lockwarden-admin:" + PASSWORD + "@127.0.0.1:"
                                + REDIS.node(0).port())
                        .application("dashboard")
                        .shutdownHook(false)
                        .auditSigner(signer)
                        .build()) {
            app.acquire("acl:dash", LockOptions.ttl(Duration.ofSeconds(30)));
            assertTrue(dashboard.inspector().forceRelease("acl:dash", "alice").released());
            List<AuditRecord> audit = dashboard.inspector().audit(10);
            assertEquals(1, audit.size(), audit.toString());
            assertEquals(AuditRecord.Seal.VALID, audit.get(0).seal());
        }
    }
}
