package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedlockSafeForceReleaseTest extends AbstractSafeForceReleaseTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected void awaitReleasedEverywhere(String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (int i = 0; i < REDIS.uris().size(); i++) {
            while (!"0".equals(REDIS.node(i).command("EXISTS", "lock:{" + name + "}"))) {
                assertTrue(System.nanoTime() < deadline, "the release did not reach node " + i + " within 5 s");
                Thread.onSpinWait();
            }
        }
    }

    /** On the last node only: the others' keys are fine, and still nothing may be written on any node. */
    @Override
    protected Runnable writeForeignString(String key) {
        int last = REDIS.uris().size() - 1;
        REDIS.node(last).command("SET", key, "x");
        return () -> REDIS.node(last).command("DEL", key);
    }

    /**
     * The lock is left on one node of three (e.g. the other two lost it): the force-release removes it there,
     * raises the fence everywhere and audits it on that node, but it was no quorum's lock. The result says
     * exactly that, node by node, and is not "released".
     */
    @Test
    void aMinorityReleaseIsReportedNodeByNode() {
        LockHandle held = first.acquire("safe:minority", HELD);
        LockInfo seen = dashboard.inspector().get("safe:minority").orElseThrow();
        awaitOnEveryNode("lock:{safe:minority}");
        REDIS.node(1).command("DEL", "lock:{safe:minority}");
        REDIS.node(2).command("DEL", "lock:{safe:minority}");

        ForceReleaseResult r = dashboard.inspector().forceRelease(seen, "alice");

        assertFalse(r.released(), "one node of three is no majority: " + r);
        assertEquals(1, r.releasedOn(), r.toString());
        assertEquals(3, r.nodes().size(), r.toString());
        assertEquals(ForceReleaseResult.State.RELEASED, r.nodes().get(0).state());
        assertEquals(REDIS.uris().get(0), r.nodes().get(0).node());
        assertNotNull(r.nodes().get(0).auditId(), "audited on the node that released it");
        assertEquals(ForceReleaseResult.State.FREE, r.nodes().get(1).state());
        assertEquals(ForceReleaseResult.State.FREE, r.nodes().get(2).state());
        assertEquals(held.fencingToken(), r.oldFence());
        assertEquals("0", REDIS.node(0).command("EXISTS", "lock:{safe:minority}"));
        assertEquals(1, auditRecords("safe:minority").size(), "node 0's audit record");
        for (int i = 0; i < 3; i++) {
            assertTrue(
                    Long.parseLong(REDIS.node(i).command("GET", "lock:{safe:minority}:fence")) >= r.newFence(),
                    "fence raised on node " + i);
        }
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.redlock(REDIS.uris().toArray(String[]::new));
    }

    /** Acquire returns at a majority: waits until the last node has the lock too, so no late SET follows a DEL. */
    private static void awaitOnEveryNode(String key) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (int i = 0; i < REDIS.uris().size(); i++) {
            while (!"1".equals(REDIS.node(i).command("EXISTS", key))) {
                assertTrue(System.nanoTime() < deadline, "node " + i + " never got " + key);
                Thread.onSpinWait();
            }
        }
    }
}
