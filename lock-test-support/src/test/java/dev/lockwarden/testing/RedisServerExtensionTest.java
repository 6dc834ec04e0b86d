package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerExtensionTest {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(2).withArgs("--requirepass", "secret");

    private static List<Integer> ports;
    private static List<Long> pids;

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @Test
    @Order(1)
    void startsNodesWithArgs() {
        assertEquals(2, redis.nodes().size());
        assertEquals(redis.node(0).uri(), redis.uri());
        assertEquals(List.of(redis.node(0).uri(), redis.node(1).uri()), redis.uris());
        for (RedisNode node : redis.nodes()) {
            assertEquals("requirepass\nsecret", node.command("CONFIG", "GET", "requirepass"));
        }
        assertThrows(IllegalStateException.class, redis::cluster);
    }

    @Test
    @Order(2)
    void faultsInjectedHere() {
        ports = redis.nodes().stream().map(RedisNode::port).collect(Collectors.toList());
        pids = redis.nodes().stream().map(RedisNode::pid).collect(Collectors.toList());
        redis.node(0).command("SET", "k", "v");
        redis.node(0).kill();
        redis.node(1).pause();
    }

    @Test
    @Order(3)
    void areRepairedBeforeTheNextTest() {
        if (ports == null) {
            return; // run on its own
        }
        for (int i = 0; i < 2; i++) {
            RedisNode node = redis.node(i);
            assertTrue(node.isRunning());
            assertFalse(node.isPaused());
            assertEquals(ports.get(i), node.port());
            assertEquals("PONG", node.command("PING"));
        }
        assertTrue(pids.get(0) != redis.node(0).pid(), "killed node restarted");
        assertEquals(pids.get(1), redis.node(1).pid(), "paused node resumed, not restarted");
        assertEquals(null, redis.node(0).command("GET", "k"));
    }

    @Test
    @Order(4)
    void flushAllEmptiesEveryNode() {
        for (RedisNode node : redis.nodes()) {
            node.command("SET", "k", "v");
        }
        redis.flushAll();
        for (RedisNode node : redis.nodes()) {
            assertEquals("0", node.command("DBSIZE"));
        }
    }

    @Test
    @Order(5)
    void lifecycleCallbacksStartAndStopProcesses() {
        RedisServerExtension ext = RedisServerExtension.nodes(3);
        assertThrows(IllegalStateException.class, ext::nodes);
        ext.beforeAll(null);
        List<RedisNode> nodes = ext.nodes();
        assertEquals(3, nodes.size());
        assertEquals(3, nodes.stream().map(RedisNode::port).distinct().count());
        nodes.forEach(n -> assertEquals("PONG", n.command("PING")));
        nodes.get(1).pause();
        ext.afterAll(null);
        for (RedisNode node : nodes) {
            long pid = node.pid();
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "leaked " + node);
        }
        assertThrows(IllegalStateException.class, ext::nodes);
    }

    @Test
    @Order(6)
    void failedStartLeavesNothingRunning() {
        RedisServerExtension ext = RedisServerExtension.nodes(2).withArgs("--no-such-directive", "x");
        assertThrows(IllegalStateException.class, () -> ext.beforeAll(null));
        assertThrows(IllegalStateException.class, ext::nodes);
    }
}
