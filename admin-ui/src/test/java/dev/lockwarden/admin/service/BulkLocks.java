package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.LockSource;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LuaScript;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.testing.RedisNode;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;

/**
 * Many held locks at once: the real acquire script, pipelined in chunks, writing what a LockManager writes (per
 * lock its key and fence counter; one holder record for the JVM).
 */
public final class BulkLocks {
    private BulkLocks() {}

    /** Takes {@code bulk:0} .. {@code bulk:<n-1>} for 10 minutes on {@code node}. */
    public static void acquire(RedisNode node, int n) {
        LuaScript acquire = LuaScript.load(RedisNodeClient.class, "acquire.lua");
        try (RedisClient c = RedisClient.create(node.host(), node.port())) {
            assertEquals(acquire.sha1(), c.scriptLoad(acquire.source()), "pipelined EVALSHA needs the script loaded");
            c.hset(JvmRecord.key("bulkjvm"), new JvmRecord("bulk-app", "bulk-host", 1).fields());
            c.pexpire(JvmRecord.key("bulkjvm"), JvmRecord.TTL_MILLIS);
            long now = System.currentTimeMillis();
            for (int from = 0; from < n; from += 2_000) {
                try (AbstractPipeline p = c.pipelined()) {
                    for (int i = from; i < Math.min(n, from + 2_000); i++) {
                        String name = "bulk:" + i;
                        String holder = new LockHolder("bulkjvm", "t" + (i % 8), LockSource.API, "", now).encode();
                        acquire.queue(
                                p,
                                List.of("lock:{" + name + "}", "lock:{" + name + "}:fence"),
                                List.of("tok" + i, "600000", "604800000", "1", holder));
                    }
                    p.sync();
                }
            }
        }
    }
}
