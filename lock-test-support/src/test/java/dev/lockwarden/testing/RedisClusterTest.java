package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;

@Timeout(90)
class RedisClusterTest {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.cluster(3);

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    private static RedisClusterClient client() {
        Set<HostAndPort> seeds = redis.cluster().seedUris().stream()
                .map(URI::create)
                .map(u -> new HostAndPort(u.getHost(), u.getPort()))
                .collect(Collectors.toSet());
        return RedisClusterClient.builder().nodes(seeds).build();
    }

    @Test
    void everyNodeReportsClusterOk() {
        assertEquals(3, redis.nodes().size());
        assertEquals(redis.uris(), redis.cluster().seedUris());
        for (RedisNode node : redis.nodes()) {
            String info = node.command("CLUSTER", "INFO");
            assertTrue(info.contains("cluster_state:ok\r\n"), info);
            assertTrue(info.contains("cluster_known_nodes:3\r\n"), info);
            assertTrue(info.contains("cluster_slots_ok:16384\r\n"), info);
            assertTrue(node.uri().startsWith("redis://127.0.0.1:"), node.uri());
        }
        // slots are split evenly in node order: "a" hashes to slot 15495, owned by the last node
        assertEquals("15495", redis.node(0).command("CLUSTER", "KEYSLOT", "a"));
        assertEquals("OK", redis.node(2).command("SET", "a", "1"));
        RedisReplyException moved =
                assertThrows(RedisReplyException.class, () -> redis.node(1).command("GET", "a"));
        assertEquals("MOVED 15495 127.0.0.1:" + redis.node(2).port(), moved.getMessage());
    }

    @Test
    void jedisClusterClientWritesToEveryMaster() {
        try (RedisClusterClient jedis = client()) {
            for (int i = 0; i < 60; i++) {
                jedis.set("key-" + i, "value-" + i);
            }
            for (int i = 0; i < 60; i++) {
                assertEquals("value-" + i, jedis.get("key-" + i));
            }
        }
        long total = 0;
        for (RedisNode node : redis.nodes()) {
            long keys = Long.parseLong(node.command("DBSIZE"));
            assertTrue(keys > 0, node + " holds no key");
            total += keys;
        }
        assertEquals(60, total);
    }

    @Test
    void killedMasterRejoinsAfterRestart() {
        RedisNode victim = redis.node(1);
        int port = victim.port();
        victim.kill();
        victim.restart();
        assertEquals(port, victim.port());
        long start = System.nanoTime();
        redis.cluster().awaitClusterOk(Duration.ofSeconds(30));
        System.out.printf("cluster ok again %d ms after restart%n", (System.nanoTime() - start) / 1_000_000);
        try (RedisClusterClient jedis = client()) {
            for (int i = 0; i < 30; i++) {
                jedis.set("after-" + i, "x");
            }
        }
        assertTrue(Long.parseLong(victim.command("DBSIZE")) > 0);
    }

    @Test
    void awaitClusterOkFailsFastWhenANodeIsDown() {
        redis.node(2).kill(); // restored by the extension before the next test
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> redis.cluster().awaitClusterOk(Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("not running"), e.getMessage());
    }
}
