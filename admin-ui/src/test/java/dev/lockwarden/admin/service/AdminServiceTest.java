package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.security.Role;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** AdminService against a real redis-server: listing, role enforcement, audit records. */
class AdminServiceTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final AdminUser ALICE = new AdminUser("alice", Role.OPERATOR);
    private static final AdminUser VICTOR = new AdminUser("victor", Role.VIEWER);
    private static final LockOptions FIXED =
            LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false);

    private LockManager billing;
    private LockManager reports;
    private LockManager admin;
    private AdminService service;

    @BeforeEach
    void start() {
        REDIS.flushAll();
        billing =
                LockManager.builder().redis(REDIS.uri()).application("billing").build();
        reports =
                LockManager.builder().redis(REDIS.uri()).application("reports").build();
        admin = LockManager.builder()
                .redis(REDIS.uri())
                .application("lockwarden-admin")
                .build();
        service = new AdminService(admin.inspector(), 100);
    }

    @AfterEach
    void stop() {
        billing.close();
        reports.close();
        admin.close();
    }

    @Test
    void clientsCarryTheirHeartbeatsVersionsAndAnOlderClientsBeatWithoutThemStillLists() {
        // the value an older client writes: application@host:pid only
        REDIS.node(0).command("SET", "lockwarden:jvm:old0000jvm", "legacy@old-host:77", "PX", "15000");
        var clients = service.clients();
        var billingClient = clients.stream()
                .filter(c -> c.application().equals("billing"))
                .findFirst()
                .orElseThrow();
        assertEquals(System.getProperty("lockwarden.project.version"), billingClient.version());
        assertEquals(System.getProperty("java.version"), billingClient.javaVersion());
        var old = clients.stream()
                .filter(c -> c.jvmId().equals("old0000jvm"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("legacy", "old-host", 77L, "", ""),
                List.of(old.application(), old.host(), old.pid(), old.version(), old.javaVersion()));
        assertTrue(old.alive());
    }

    @Test
    void listsByPrefixAndApplication() {
        for (String n : List.of("svc:a", "svc:b", "svc:c")) {
            billing.acquire(n, FIXED);
        }
        reports.acquire("svc:report", FIXED);
        billing.acquire("other:x", FIXED);

        assertEquals(
                Set.of("svc:a", "svc:b", "svc:c", "svc:report"), names(service.list(new LockQuery(" svc: ", ""), 1)));
        assertEquals(Set.of("svc:report"), names(service.list(new LockQuery("svc:", "reports"), 1)));
        LockListing all = service.list(LockQuery.all(), 1);
        assertEquals(5, all.locks().size());
        assertFalse(all.more());
        LockInfo a = service.get("svc:a").orElseThrow();
        assertEquals("billing", a.holder().application());
        assertTrue(a.holderAlive());
    }

    @Test
    void loadMoreFollowsTheInspectorCursorToTheEnd() {
        for (int i = 0; i < 250; i++) {
            billing.acquire("bulk:" + i, FIXED);
        }
        int pages = 1;
        LockListing listing = service.list(LockQuery.all(), pages);
        assertTrue(listing.more(), "250 locks do not fit one page of 100");
        while (listing.more() && pages < 50) {
            listing = service.list(LockQuery.all(), ++pages);
        }
        assertFalse(listing.more());
        assertEquals(250, names(listing).size());
        assertEquals(250, listing.locks().size(), "no lock listed twice");
    }

    @Test
    void operatorForceReleaseBumpsFenceWritesAuditAndHolderLosesTheLock() throws Exception {
        LockHandle held =
                billing.acquire("pay:1", LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(true));
        CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
        held.onLost(lost::complete);

        ForceReleaseResult r = service.forceRelease(service.get("pay:1").orElseThrow(), ALICE);

        assertTrue(r.released());
        assertEquals(held.fencingToken(), r.oldFence());
        assertTrue(r.newFence() > r.oldFence());
        assertNotNull(r.auditId());
        assertTrue(service.get("pay:1").isEmpty());
        List<String> audit = Arrays.asList(REDIS.node(0)
                .command("XRANGE", "lockwarden:audit", r.auditId(), r.auditId())
                .split("\n"));
        assertEquals("alice", audit.get(audit.indexOf("operator") + 1), "audit names the operator: " + audit);
        assertEquals("pay:1", audit.get(audit.indexOf("name") + 1));
        assertEquals(Long.toString(r.oldFence()), audit.get(audit.indexOf("oldFence") + 1));
        assertEquals("billing", audit.get(audit.indexOf("holder.app") + 1), audit.toString());
        assertTrue(service.events("pay:1").stream()
                .anyMatch(e -> e.type().equals("force-release")
                        && "alice".equals(e.fields().get("operator"))));

        LockLostEvent event = lost.get(10, TimeUnit.SECONDS);
        assertEquals(held.fencingToken(), event.fencingToken());
        assertFalse(held.isHeld());
    }

    @Test
    void viewersAndAnonymousUsersAreRefusedByTheService() {
        LockHandle held = billing.acquire("pay:2", FIXED);
        LockInfo seen = service.get("pay:2").orElseThrow();
        AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> service.forceRelease(seen, VICTOR));
        assertTrue(e.getMessage().contains("victor") && e.getMessage().contains("OPERATOR"), e.getMessage());
        assertThrows(AccessDeniedException.class, () -> service.forceRelease(seen, null));
        assertEquals(
                held.fencingToken(), service.get("pay:2").orElseThrow().fencingToken(), "still held, fence untouched");
        assertTrue(held.isHeld());
        assertEquals("", REDIS.node(0).command("XRANGE", "lockwarden:audit", "-", "+"), "no audit record");
    }

    @Test
    void aLockThatChangedHandsSinceConfirmationIsNotReleased() {
        LockHandle first = billing.acquire("pay:3", FIXED);
        LockInfo inDialog = service.get("pay:3").orElseThrow();
        first.release();
        LockHandle second = reports.acquire("pay:3", FIXED);

        LockChangedException e = assertThrows(LockChangedException.class, () -> service.forceRelease(inDialog, ALICE));
        assertTrue(
                e.getMessage().contains("changed hands") && e.getMessage().contains("now held by reports"),
                e.getMessage());
        assertTrue(second.isHeld());
        assertEquals(second.fencingToken(), service.get("pay:3").orElseThrow().fencingToken());
        assertEquals("", REDIS.node(0).command("XRANGE", "lockwarden:audit", "-", "+"), "no audit record");

        LockInfo secondInDialog = service.get("pay:3").orElseThrow();
        second.release();
        e = assertThrows(LockChangedException.class, () -> service.forceRelease(secondInDialog, ALICE));
        assertTrue(e.getMessage().contains("free now"), e.getMessage());
    }

    /**
     * One SET of the audit stream's name by any program: the force-release is refused before anything is written,
     * with a message naming the key and the fix, and the lock is still held with its fence. (Before, the script
     * deleted the lock and bumped the fence, then failed at its XADD: the dashboard said it failed while the lock
     * was gone and its holder not told.)
     */
    @Test
    void aForeignValueAtTheAuditStreamIsNamedAndNothingIsReleased() {
        LockHandle held = billing.acquire("pay:4", FIXED);
        LockInfo seen = service.get("pay:4").orElseThrow();
        REDIS.node(0).command("SET", "lockwarden:audit", "x");

        dev.lockwarden.LockStoreException e =
                assertThrows(dev.lockwarden.LockStoreException.class, () -> service.forceRelease(seen, ALICE));

        assertTrue(
                e.getMessage().contains("lockwarden:audit is a string, not a stream: another program wrote it; DEL it"),
                e.getMessage());
        assertTrue(held.isHeld());
        assertEquals(seen.fencingToken(), service.get("pay:4").orElseThrow().fencingToken(), "still held");
        assertEquals(Long.toString(seen.fencingToken()), REDIS.node(0).command("GET", "lock:{pay:4}:fence"));
        assertEquals("x", REDIS.node(0).command("GET", "lockwarden:audit"), "the foreign value is untouched");
        REDIS.node(0).command("DEL", "lockwarden:audit");
        assertTrue(service.forceRelease(seen, ALICE).released(), "after the fix the message names");
    }

    private static Set<String> names(LockListing listing) {
        return listing.locks().stream().map(LockInfo::name).collect(Collectors.toCollection(HashSet::new));
    }
}
