package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditSigner;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/** Over Redlock each node's audit stream is its own chain: every node's records are sealed after that node's last. */
class RedlockAuditChainTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    @Test
    void everyNodesAuditStreamIsAnUnbrokenChain() {
        REDIS.flushAll();
        String[] uris = REDIS.uris().toArray(String[]::new);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        AuditSigner signer = AuditSigner.of(key);
        try (LockManager app =
                        LockManager.builder().redlock(uris).application("app").build();
                LockManager dashboard = LockManager.builder()
                        .redlock(uris)
                        .application("dashboard")
                        .auditSigner(signer)
                        .build()) {
            REDIS.node(2).command("XADD", "lockwarden:audit", "*", "name", "older", "operator", "bob");
            for (String name : List.of("rl:a", "rl:b")) {
                app.acquire(name, LockOptions.ttl(Duration.ofSeconds(30)));
                assertTrue(dashboard.inspector().forceRelease(name, "alice").released(), name);
            }
            for (String uri : uris) {
                URI u = URI.create(uri);
                try (RedisClient c = RedisClient.create(u.getHost(), u.getPort())) {
                    List<StreamEntry> all = c.xrange("lockwarden:audit", (StreamEntryID) null, (StreamEntryID) null);
                    List<StreamEntry> sealed = all.stream()
                            .filter(e -> e.getFields().containsKey("mac"))
                            .toList();
                    assertEquals(2, sealed.size(), uri + ": " + all);
                    for (StreamEntry e : sealed) {
                        assertTrue(signer.verify(e.getFields()), uri + ": " + e);
                        StreamEntry before = all.get(all.indexOf(e) - 1 < 0 ? 0 : all.indexOf(e) - 1);
                        assertEquals(
                                all.indexOf(e) == 0 ? "0-0" : before.getID().toString(),
                                e.getFields().get("prev"),
                                uri + ": sealed after that node's last record");
                    }
                }
            }
        }
    }
}
