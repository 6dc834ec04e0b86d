package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisSentinelGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent on a Redis Sentinel group (a master, two replicas behind relays, three sentinels), configured by the
 * file's {@code sentinel = mymaster@...} line, with a rule asking {@code replicaAcks=1/200ms}: with replication
 * flowing the method runs; held back, the call fails with {@code LockStoreException} and the body does not run.
 * One group for the class.
 */
@Timeout(180)
class SentinelAgentIT extends AgentTestBase {
    private static RedisSentinelGroup group;

    @BeforeAll
    static void startGroup() {
        group = new RedisSentinelGroup(true).start();
    }

    @AfterAll
    static void stopGroup() {
        group.close();
    }

    @AfterEach
    void flow() {
        group.flowReplication();
    }

    @Test
    void withReplicationFlowingTheMethodRunsUnderItsLock() throws Exception {
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp", List.of(ChildJvm.javaagent(config())), Map.of(), "call")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("BODY RAN p1"), app.toString());
            assertTrue(app.stdout().contains("RESULT paid p1"), app.toString());
        }
    }

    @Test
    void withReplicationHeldTheCallFailsAndTheBodyDoesNotRun() throws Exception {
        group.holdReplication();
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp", List.of(ChildJvm.javaagent(config())), Map.of(), "call")) {
            assertEquals(3, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("FAILED "), app.toString());
            assertTrue(app.stdout().contains("acknowledged"), app.toString());
            assertFalse(
                    app.stdout().contains("BODY RAN"), "the body ran without the replica's acknowledgement: " + app);
        }
        assertEquals("0", group.master().command("EXISTS", "lock:{pay:p1}"), "the lock was given back");
    }

    private Path config() throws Exception {
        return write(
                "sentinel.conf",
                "sentinel = " + RedisSentinelGroup.MASTER_NAME + "@" + String.join(",", group.sentinelUris()),
                "com.acme.legacy.Guarded#pay key=\"pay:{0}\" replicaAcks=1/200ms");
    }
}
