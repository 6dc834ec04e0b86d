package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.store.LuaScript;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.testing.RedisNode;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;

/** Many held locks at once: the real acquire script, pipelined in chunks, writing what a LockManager writes. */
public final class BulkLocks {
    private BulkLocks() {}

    /** Takes {@code bulk:0} .. {@code bulk:<n-1>} for 10 minutes on {@code node}. */
    public static void acquire(RedisNode node, int n) {
        LuaScript acquire = LuaScript.load(RedisNodeClient.class, "acquire.lua");
        try (RedisClient c = RedisClient.create(node.host(), node.port())) {
            assertEquals(acquire.sha1(), c.scriptLoad(acquire.source()), "pipelined EVALSHA needs the script loaded");
            String now = Long.toString(System.currentTimeMillis());
            for (int from = 0; from < n; from += 2_000) {
                try (AbstractPipeline p = c.pipelined()) {
                    for (int i = from; i < Math.min(n, from + 2_000); i++) {
                        String name = "bulk:" + i;
                        List<String> args = new ArrayList<>(List.of(
                                "tok" + i,
                                "600000",
                                "604800000",
                                "1",
                                "app",
                                "bulk-app",
                                "host",
                                "bulk-host",
                                "pid",
                                "1",
                                "jvm",
                                "bulkjvm",
                                "thread",
                                "t" + (i % 8),
                                "source",
                                "API",
                                "method",
                                "",
                                "acquiredAt",
                                now));
                        acquire.queue(
                                p,
                                List.of("lock:{" + name + "}", "lock:{" + name + "}:info", "lock:{" + name + "}:fence"),
                                args);
                    }
                    p.sync();
                }
            }
        }
    }
}
