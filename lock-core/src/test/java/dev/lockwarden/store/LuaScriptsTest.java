package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every Lua script resource loads into a real Redis under the SHA1 we compute and run with EVALSHA. */
class LuaScriptsTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockHolder HOLDER = new LockHolder("jvm", "main", dev.lockwarden.LockSource.API, "", 1);

    @Test
    void shaOfEachScriptMatchesTheServer() {
        for (String name : List.of(
                "acquire.lua",
                "release.lua",
                "refresh.lua",
                "refresh-many.lua",
                "force-release.lua",
                "audit-append.lua",
                "raise-fence.lua")) {
            LuaScript s = LuaScript.load(RedisNodeClient.class, name);
            assertEquals(s.sha1(), REDIS.node(0).command("SCRIPT", "LOAD", s.source()), name);
        }
    }

    @Test
    void evalshaFallsBackToEvalAfterScriptFlush() {
        try (redis.clients.jedis.RedisClient c = redis.clients.jedis.RedisClient.create(
                REDIS.node(0).host(), REDIS.node(0).port())) {
            RedisNodeClient node = new RedisNodeClient(c, "test", new KeySpace("lock:"), 60_000, null, null);
            REDIS.node(0).command("SCRIPT", "FLUSH");
            Lease lease = new Lease("lua:one", "tok", 5_000);
            assertEquals(true, node.acquire(lease, HOLDER, true, 0, false).acquired());
            REDIS.node(0).command("SCRIPT", "FLUSH");
            assertEquals(true, node.refresh(List.of(lease))[0]); // pipelined EVALSHA → NOSCRIPT → EVAL
            assertEquals(true, node.release(lease, ReleaseScript.Wake.IF_WAITED, 0));
        }
    }

    @Test
    void refreshManyExtendsOnlyLocksStillOurs() {
        try (redis.clients.jedis.RedisClient c = redis.clients.jedis.RedisClient.create(
                REDIS.node(0).host(), REDIS.node(0).port())) {
            RedisNodeClient node = new RedisNodeClient(c, "test", new KeySpace("lock:"), 60_000, null, null);
            java.util.List<Lease> leases = new java.util.ArrayList<>();
            for (int i = 0; i < RefreshScript.CHUNK * 2 + 7; i++) { // three chunks
                Lease l = new Lease("many:" + i, "tok" + i, 1_000);
                assertEquals(true, node.acquire(l, HOLDER, true, 0, false).acquired());
                leases.add(i % 3 == 0 ? new Lease(l.name(), "stolen", 60_000) : new Lease(l.name(), l.token(), 60_000));
            }
            REDIS.node(0).command("SCRIPT", "FLUSH"); // NOSCRIPT on every chunk → EVAL fallback
            boolean[] ours = node.refresh(leases);
            for (int i = 0; i < leases.size(); i++) {
                assertEquals(i % 3 != 0, ours[i], "lock " + i);
                long pttl = Long.parseLong(REDIS.node(0).command("PTTL", "lock:{many:" + i + "}"));
                assertEquals(i % 3 != 0, pttl > 5_000, "lock " + i + " pttl " + pttl);
            }
        }
    }
}
