package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditRecord.Seal;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A dashboard holding an {@link AuditSigner} seals each force-release's audit record into a MAC chain, appended in
 * the force-release script only after the record it names; reading the audit checks each record's seal.
 */
class AuditChainTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions HELD = LockOptions.ttl(Duration.ofSeconds(30));
    private final byte[] key = new byte[32];
    private LockManager app;
    private LockManager dashboard;

    @BeforeEach
    void start() {
        REDIS.flushAll();
        new SecureRandom().nextBytes(key);
        app = LockManager.builder().redis(REDIS.uri()).application("app").build();
        dashboard = dashboard();
    }

    private LockManager dashboard() {
        return LockManager.builder()
                .redis(REDIS.uri())
                .application("dashboard")
                .auditSigner(AuditSigner.of(key))
                .build();
    }

    @AfterEach
    void stop() {
        app.close();
        dashboard.close();
    }

    private List<Seal> seals() {
        return dashboard.inspector().audit(100).stream().map(AuditRecord::seal).toList();
    }

    private void forceRelease(LockManager by, String name) {
        app.acquire(name, HELD);
        assertTrue(by.inspector().forceRelease(name, "alice").released(), name);
    }

    @Test
    void sealedRecordsChainAndADeletedOrForgedRecordIsMarked() {
        for (int i = 0; i < 3; i++) {
            forceRelease(dashboard, "chain:" + i);
        }
        assertEquals(List.of(Seal.VALID, Seal.VALID, Seal.VALID), seals());
        assertEquals(
                List.of(Seal.UNCHECKED, Seal.UNCHECKED, Seal.UNCHECKED),
                app.inspector().audit(100).stream().map(AuditRecord::seal).toList(),
                "an application holds no key: it cannot check (nor seal)");

        String middle = dashboard.inspector().audit(100).get(1).id();
        REDIS.node(0).command("XDEL", "lockwarden:audit", middle);
        assertEquals(List.of(Seal.GAP, Seal.VALID), seals(), "the record after the deleted one shows the gap");

        REDIS.node(0)
                .command(
                        "XADD",
                        "lockwarden:audit",
                        "*",
                        "name",
                        "chain:x",
                        "operator",
                        "mallory",
                        "prev",
                        "0-0",
                        "prevMac",
                        "",
                        "signed",
                        "name,operator,prev,prevMac",
                        "mac",
                        "00".repeat(32));
        assertEquals(Seal.BROKEN, seals().get(0), "a MAC made without the key");

        forceRelease(app, "chain:by-app");
        assertEquals(Seal.UNSIGNED, seals().get(0), "an application's force-release: not from the dashboard");

        forceRelease(dashboard, "chain:after");
        assertEquals(Seal.VALID, seals().get(0), "the chain goes on after the foreign records");
    }

    /**
     * Two dashboards (same key) force-release at once: each record is sealed after the stream's last record, and
     * the script appends it only if that is still the last (else it is sealed again), so no two records name the
     * same predecessor. Without that check, two records sealed after the same last one would show a GAP.
     */
    @Test
    void concurrentSealedForceReleasesFormOneUnbrokenChain() throws Exception {
        int perDashboard = 15;
        try (LockManager second = dashboard()) {
            for (int i = 0; i < perDashboard; i++) {
                app.acquire("race:a" + i, HELD);
                app.acquire("race:b" + i, HELD);
            }
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (String side : List.of("a", "b")) {
                    LockManager by = side.equals("a") ? dashboard : second;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perDashboard; i++) {
                            assertTrue(by.inspector()
                                    .forceRelease("race:" + side + i, "alice")
                                    .released());
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
        }
        List<Seal> seals = seals();
        assertEquals(2 * perDashboard, seals.size());
        assertTrue(seals.stream().allMatch(s -> s == Seal.VALID), seals.toString());
    }
}
