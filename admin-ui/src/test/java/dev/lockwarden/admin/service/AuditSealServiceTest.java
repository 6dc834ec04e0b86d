package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditRecord.Seal;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.security.Role;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's audit, service level: its force-releases are sealed (the Audit view's Seal column), a record
 * deleted from Redis leaves a gap the view shows, and the local JSON-lines copy keeps every record when Redis is
 * flushed.
 */
class AuditSealServiceTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final AdminUser ALICE = new AdminUser("alice", Role.OPERATOR);

    @TempDir
    Path dir;

    @Test
    void sealedRecordsAGapAfterADeletionAndTheLocalCopySurvivesAFlush() throws Exception {
        REDIS.flushAll();
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path file = dir.resolve("audit.jsonl");
        try (LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("billing")
                        .build();
                LockManager admin = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("lockwarden-admin")
                        .auditSigner(AuditSigner.of(key))
                        .build()) {
            AdminService service = new AdminService(admin.inspector(), 100).withAuditFile(new AuditFile(file));
            for (String name : List.of("pay:1", "pay:\"2\"", "pay:3")) {
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(60)));
                assertTrue(service.forceRelease(service.get(name).orElseThrow(), ALICE)
                        .released());
            }
            assertEquals(List.of(Seal.VALID, Seal.VALID, Seal.VALID), seals(service));

            REDIS.node(0)
                    .command(
                            "XDEL",
                            "lockwarden:audit",
                            service.audit("", 10).get(1).id());
            assertEquals(List.of(Seal.GAP, Seal.VALID), seals(service));

            REDIS.flushAll();
            assertEquals(List.of(), service.audit("", 10));
            List<String> lines = Files.readAllLines(file);
            assertEquals(3, lines.size(), lines.toString());
            assertTrue(lines.get(1).startsWith("{\"at\":\""), lines.get(1));
            assertTrue(
                    lines.get(1).contains("\"operator\":\"alice\",\"name\":\"pay:\\\"2\\\"\",\"released\":true"),
                    lines.get(1));
            assertTrue(lines.get(1).contains("\"state\":\"RELEASED\""), lines.get(1));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
    }

    private static List<Seal> seals(AdminService service) {
        return service.audit("", 10).stream().map(AuditRecord::seal).toList();
    }
}
