package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.security.Role;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dashboard's services (what the views call: health strip, Locks view, lock details and history, force-release
 * with its sealed audit record, Audit view, Clients, Fences, Activity) as the Redis user of docs/acl.md, created
 * exactly as documented there: nothing is refused. Controls: the same user without {@code +info} (the health strip
 * fails), without {@code +dbsize} (the search has no key total), and an application's user (no force-release).
 */
class DashboardAclTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final String PASSWORD = "dashboard-acl-pw";
    private static final String USER = "lockwarden-admin";
    private static final AdminUser ALICE = new AdminUser("alice", Role.OPERATOR);
    private static final LockOptions HELD = LockOptions.ttl(Duration.ofSeconds(60));

    @BeforeEach
    void clean() {
        REDIS.flushAll();
        REDIS.node(0).command("ACL", "LOG", "RESET");
    }

    @Test
    void theDocumentedUserRunsEveryServiceOfTheDashboard() throws Exception {
        createUser(USER, documented(USER), List.of());
        try (LockManager app = app();
                LockManager dashboard = dashboard(USER)) {
            app.acquire("pay:1", HELD);
            HealthService health =
                    new HealthService(dashboard.inspector(), dashboard::describeRedis, Clock.systemUTC());
            Health h = await(health::health);
            assertEquals(Optional.empty(), h.error(), h.toString());
            assertTrue(h.deployment().startsWith("single node"), h.toString());
            assertTrue(h.clientsAlive() >= 1, h.toString());
            assertEquals(1, await(health::held).count());

            AdminService service = new AdminService(dashboard.inspector(), 50).withRedis(dashboard.describeRedis());
            assertEquals(
                    List.of("pay:1"), names(service.list(LockQuery.all(), 1).locks()));
            LockSearch.Snapshot search = service.search(new LockQuery("pay", ""), 50, Optional.empty())
                    .awaitSettled(Duration.ofSeconds(10));
            assertEquals(List.of("pay:1"), names(search.locks()), search.toString());
            assertTrue(search.keyCount().isPresent(), "no key total (DBSIZE): " + search);
            LockInfo seen = service.get("pay:1").orElseThrow();
            assertEquals("billing", seen.holder().application());
            assertEquals(List.of("pay:1"), names(service.refresh(List.of("pay:1"))));
            assertTrue(service.fences("", 10).stream().anyMatch(f -> f.name().equals("pay:1")));
            assertTrue(service.clients().stream().anyMatch(c -> c.application().equals("billing")));
            service.activity(15);
            service.events("pay:1");

            ForceReleaseResult r = service.forceRelease(seen, ALICE);
            assertTrue(r.released(), r.toString());
            assertEquals(Optional.empty(), service.get("pay:1"));
            List<AuditRecord> audit = service.audit("", 10);
            assertEquals(1, audit.size(), audit.toString());
            assertEquals("alice", audit.get(0).operator());
            assertEquals("pay:1", audit.get(0).name());
            assertEquals(AuditRecord.Seal.VALID, audit.get(0).seal(), audit.toString());
            assertTrue(
                    service.events("pay:1").stream()
                            .anyMatch(e -> e.type().equals("force-release")
                                    && "alice".equals(e.fields().get("operator"))),
                    "no force-release in the lock's history");
        }
        // nothing was refused, not even what the dashboard tolerates (a failed DBSIZE, a lost event)
        assertEquals(List.of(), refused(USER));
    }

    @Test
    void withoutInfoTheHealthStripSaysRedisIsUnreachable() throws Exception {
        List<String> line = documented(USER);
        assertTrue(line.contains("+info"), "docs/acl.md: no +info in " + line);
        createUser("dashboard-no-info", line, List.of("+info"));
        try (LockManager app = app();
                LockManager dashboard = dashboard("dashboard-no-info")) {
            app.acquire("pay:1", HELD);
            Health h = await(
                    new HealthService(dashboard.inspector(), dashboard::describeRedis, Clock.systemUTC())::health);
            assertTrue(h.error().orElse("").contains("NOPERM"), h.toString());
            assertEquals(
                    List.of("pay:1"),
                    names(new AdminService(dashboard.inspector(), 50)
                            .list(LockQuery.all(), 1)
                            .locks()));
        }
        assertEquals(List.of("info"), refused("dashboard-no-info"));
    }

    @Test
    void withoutDbsizeTheSearchFindsTheLocksButShowsNoKeyTotal() throws Exception {
        List<String> line = documented(USER);
        assertTrue(line.contains("+dbsize"), "docs/acl.md: no +dbsize in " + line);
        createUser("dashboard-no-dbsize", line, List.of("+dbsize"));
        try (LockManager app = app();
                LockManager dashboard = dashboard("dashboard-no-dbsize")) {
            app.acquire("pay:1", HELD);
            LockSearch.Snapshot search = new AdminService(dashboard.inspector(), 50)
                    .withRedis(dashboard.describeRedis())
                    .search(new LockQuery("pay", ""), 50, Optional.empty())
                    .awaitSettled(Duration.ofSeconds(10));
            assertEquals(List.of("pay:1"), names(search.locks()), search.toString());
            assertEquals(Optional.empty(), search.error(), search.toString());
            assertTrue(search.keyCount().isEmpty(), search.toString());
        }
        assertTrue(refused("dashboard-no-dbsize").contains("dbsize"));
    }

    @Test
    void anApplicationsUserCannotForceReleaseFromTheDashboard() throws Exception {
        assumeTrue(readOnlyKeyPatterns(), "Redis 6.2: an application's user may write the audit stream");
        createUser("lockwarden", documented("lockwarden"), List.of());
        try (LockManager app = app();
                LockManager dashboard = dashboard("lockwarden")) {
            app.acquire("pay:1", HELD);
            AdminService service = new AdminService(dashboard.inspector(), 50);
            LockInfo seen = service.get("pay:1").orElseThrow();
            LockStoreException e = assertThrows(LockStoreException.class, () -> service.forceRelease(seen, ALICE));
            assertTrue(e.getMessage().contains("NOPERM"), e.getMessage());
            assertTrue(service.get("pay:1").isPresent(), "released without an audit record");
        }
    }

    /** The {@code ACL SETUSER <user> ...} line of docs/acl.md, split into its arguments. */
    private static List<String> documented(String user) throws Exception {
        String line = Files.readAllLines(Path.of("..", "docs", "acl.md")).stream()
                .filter(l -> l.startsWith("ACL SETUSER " + user + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/acl.md has no ACL SETUSER " + user + " line"));
        return List.of(line.split(" "));
    }

    /** Creates {@code name} with the rules of {@code line} but the {@code left} ones, with {@link #PASSWORD}. */
    private static void createUser(String name, List<String> line, List<String> left) {
        List<String> args = new ArrayList<>(line);
        for (String l : left) {
            assertTrue(args.remove(l), l + " is not in " + line);
        }
        args.set(2, name);
        args.replaceAll(a -> a.equals(">CHANGE-ME") ? ">" + PASSWORD : a);
        if (!readOnlyKeyPatterns()) { // the documented Redis 6.2 variant
            args.replaceAll(a -> a.startsWith("%R~") ? a.substring(2) : a);
        }
        REDIS.node(0).command("ACL", "DELUSER", name);
        REDIS.node(0).command(args.toArray(String[]::new));
    }

    /** Redis 7.0+ has read-only key patterns ({@code %R~}); 6.2 (the embedded fallback) does not. */
    private static boolean readOnlyKeyPatterns() {
        String info = REDIS.node(0).command("INFO", "server");
        return Integer.parseInt(info.replaceAll("(?s).*redis_version:(\\d+)\\..*", "$1")) >= 7;
    }

    /** The application holding the locks, as the default user. */
    private static LockManager app() {
        return LockManager.builder()
                .redis(REDIS.uri())
                .application("billing")
                .shutdownHook(false)
                .build();
    }

    /** The dashboard's manager as AdminCommand builds it (with an audit key), connected as {@code user}. */
    private static LockManager dashboard(String user) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return LockManager.builder()
                .redis("redis://" + user + ":" + PASSWORD + "@127.0.0.1:"
                        + REDIS.node(0).port())
                .application("lockwarden-admin")
                .auditSigner(AuditSigner.of(key))
                .shutdownHook(false)
                .build();
    }

    /**
     * What Redis refused {@code user} ({@code ACL LOG} objects: commands, keys, channels), except Jedis'
     * {@code CLIENT SETINFO} (Redis 7.2+; on 6.2 logged as {@code client}), whose refusal Jedis ignores (docs/acl.md).
     */
    private static List<String> refused(String user) {
        List<String> reply = Arrays.asList(REDIS.node(0).command("ACL", "LOG").split("\n"));
        List<String> out = new ArrayList<>();
        String object = null;
        for (int i = 0; i + 1 < reply.size(); i++) {
            if (reply.get(i).equals("object")) {
                object = reply.get(i + 1);
            } else if (reply.get(i).equals("username") && reply.get(i + 1).equals(user)) {
                // Redis 6.2 logs Jedis' CLIENT SETINFO (which it does not know) as "client"
                if (!"client|setinfo".equals(object) && !("client".equals(object) && !readOnlyKeyPatterns())) {
                    out.add(object);
                }
            }
        }
        return out;
    }

    private static <T> T await(Supplier<Optional<T>> reading) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - end < 0) {
            Optional<T> r = reading.get();
            if (r.isPresent()) {
                return r.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no reading within 10 s");
    }

    private static List<String> names(List<LockInfo> locks) {
        return locks.stream().map(LockInfo::name).toList();
    }
}
