package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;

/**
 * A holder hears its lock's force-release on its pub/sub connection: onLost fires and checkHeld() throws
 * within 100 ms, though the handle never refreshes (autoRefresh off, TTL 60 s: without the signal nothing
 * would tell it for a minute). Other locks, and a lock taken again after the force-release, stay held.
 * Real redis-servers, single node and Redlock.
 */
class ForceReleaseSignalTest {
    @RegisterExtension
    static final RedisServerExtension SINGLE = RedisServerExtension.nodes(1);
    @RegisterExtension
    static final RedisServerExtension REDLOCK = RedisServerExtension.nodes(3);
    private static final LockOptions NO_REFRESH = LockOptions.ttl(Duration.ofSeconds(60)).autoRefresh(false);
    private static final long BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void aSingleNodeHolderIsToldAtOnce() throws Exception {
        try (LockManager holder = LockManager.builder().redis(SINGLE.uri()).application("sig").shutdownHook(false).build();
             LockManager ops = LockManager.builder().redis(SINGLE.uri()).application("sig-ops").shutdownHook(false).build()) {
            toldAtOnce(holder, ops);
        }
    }

    @Test
    void aRedlockHolderIsToldAtOnce() throws Exception {
        String[] uris = REDLOCK.uris().toArray(String[]::new);
        try (LockManager holder = LockManager.builder().redlock(uris).application("sig").shutdownHook(false).build();
             LockManager ops = LockManager.builder().redlock(uris).application("sig-ops").shutdownHook(false).build()) {
            toldAtOnce(holder, ops);
        }
    }

    private static void toldAtOnce(LockManager holder, LockManager ops) throws Exception {
        LockHandle h = holder.acquire("sig:job", NO_REFRESH);
        LockHandle other = holder.acquire("sig:other", NO_REFRESH);
        BlockingQueue<LockLostEvent> lost = new ArrayBlockingQueue<>(4);
        h.onLost(lost::add);
        Thread.sleep(300); // the SUBSCRIBE confirmed: a force-release before it would be heard at the next refresh only

        assertTrue(ops.inspector().forceRelease("sig:job", "alice").released());
        long released = System.nanoTime();
        while (h.isHeld() && System.nanoTime() - released < TimeUnit.SECONDS.toNanos(2)) {
            Thread.sleep(1);
        }
        long notHeld = System.nanoTime() - released;
        LockLostEvent e = lost.poll(2, TimeUnit.SECONDS);
        long told = System.nanoTime() - released;
        assertNotNull(e, "onLost fired");
        assertTrue(e.reason().startsWith("force-released by operator 'alice'"), e.reason());
        assertThrows(LockLostException.class, h::checkHeld);
        assertTrue(notHeld < BOUND_NANOS, "checkHeld() throws " + notHeld / 1_000_000.0 + " ms after the force-release");
        assertTrue(told < BOUND_NANOS, "onLost fired " + told / 1_000_000.0 + " ms after the force-release (not held after " + notHeld / 1_000_000.0 + " ms)");
        assertTrue(other.isHeld(), "another lock of the holder stays held");

        // taken again right after: a late message of the force-release must not end the new holder's lock
        LockHandle again = holder.acquire("sig:job", NO_REFRESH);
        Thread.sleep(300);
        assertTrue(again.isHeld(), "the new acquisition stays held");
        again.release();
        other.release();
    }
}
