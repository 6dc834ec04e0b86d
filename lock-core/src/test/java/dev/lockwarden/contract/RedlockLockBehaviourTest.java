package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract on a 5-node Redlock. */
class RedlockLockBehaviourTest extends AbstractLockBehaviourTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.redlock(REDIS.uris().toArray(String[]::new));
    }

    /**
     * The holder's manager listens on one node; when that node does not have the lock (it was down when the
     * lock was taken, say), its script removes nothing and publishes nothing, so the force-release tells the
     * holder there itself. The control: without that, the holder (autoRefresh off, TTL 60 s) is not told.
     */
    @Test
    void theHolderIsToldWhenTheNodeItListensOnDidNotHaveTheLock() throws Exception {
        LockManager operator = newManager("dashboard"); // holds nothing: it does not listen
        awaitLossChannel(locks, operator);
        LockHandle h = locks.acquire(name, MINUTE.autoRefresh(false));
        List<RedisNode> listening = REDIS.nodes().stream()
                .filter(n ->
                        !n.command("PUBSUB", "NUMSUB", "lock:force-released").endsWith("\n0"))
                .toList();
        assertEquals(1, listening.size(), "nodes the holder's manager listens on: " + listening);
        assertEquals("1", listening.get(0).command("DEL", "lock:{" + name + "}"));
        long start = System.nanoTime();
        assertTrue(operator.inspector().forceRelease(name, "alice").released());
        awaitNotHeld(h);
        System.out.printf(
                "Redlock, the listened-on node without the lock: not held %.1f ms after forceRelease() was called%n",
                (System.nanoTime() - start) / 1e6);
        LockLostException e = assertThrows(LockLostException.class, h::checkHeld);
        assertTrue(e.getMessage().contains("force-released by operator 'alice'"), e.getMessage());
    }
}
