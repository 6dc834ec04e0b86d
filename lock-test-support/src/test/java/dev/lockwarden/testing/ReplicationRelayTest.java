package dev.lockwarden.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

@Timeout(60)
class ReplicationRelayTest {

    private static final Duration SYNC = Duration.ofSeconds(10);

    private RedisNode master;
    private ReplicationRelay relay;
    private RedisNode replica;

    @BeforeEach
    void start() {
        master = new RedisNode().start();
        relay = ReplicationRelay.to(master.port());
        replica = new RedisNode(RedisBinary.detect(), "--replicaof", RedisNode.HOST, Integer.toString(relay.port()))
                .start();
        Replication.awaitLinkUp(replica, relay.port(), SYNC);
    }

    @AfterEach
    void stop() {
        replica.stop();
        relay.close();
        master.stop();
    }

    @Test
    void aKeyWrittenWhileHeldReachesTheReplicaOnlyAfterFlow() {
        master.command("SET", "before", "1");
        Replication.awaitCaughtUp(master, replica, SYNC);
        assertEquals("1", replica.command("GET", "before"));

        try (Jedis writer = new Jedis(RedisNode.HOST, master.port())) {
            relay.hold();
            writer.set("held", "2");
            // WAIT counts acknowledgements of this connection's writes: the replica acks, but behind
            assertEquals(0, writer.waitReplicas(1, 500));
            assertNull(replica.command("GET", "held"), "the held write reached the replica");
            assertEquals("up", Replication.info(replica).get("master_link_status"));

            relay.flow();
            assertEquals(1, writer.waitReplicas(1, 5000));
        }
        assertEquals("2", replica.command("GET", "held"));
    }

    @Test
    void aKilledMasterLeavesThePromotedReplicaWithoutTheHeldWrite() {
        relay.hold();
        master.command("SET", "lost", "1");
        master.kill();
        Replication.await(
                SYNC,
                () -> "down".equals(Replication.info(replica).get("master_link_status"))
                        ? null
                        : "the replica still sees its master up");
        replica.command("REPLICAOF", "NO", "ONE");
        assertTrue(Replication.isMaster(replica));
        assertNull(replica.command("GET", "lost"));
    }
}
