package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A holder whose lock an operator force-released learns exactly that (onLost reason and its one
 * WARNING name the operator); a lock that expired or was taken over keeps the old, generic reason,
 * and an old force-release's marker never relabels a later holder's loss. The refresh and extend
 * cases run as a Redis user that may not subscribe to {@code lock:force-released} (a "deaf" holder):
 * it cannot hear the force-release message, so only its refresh or extend, reading the marker, can
 * tell it — and a deaf holder without auto-refresh is not told for as long as it does not ask (the
 * control of the contract suite's told-at-once tests). Real redis-servers.
 */
class ForceReleasedReasonTest {
    @RegisterExtension
    static final RedisServerExtension SINGLE = RedisServerExtension.nodes(1);

    @RegisterExtension
    static final RedisServerExtension REDLOCK = RedisServerExtension.nodes(3);

    private static final String ENGINE_LOGGER = "dev.lockwarden.internal.LockEngine";

    /** A holder that cannot hear force-releases: its Redis user may not subscribe to lock:force-released. */
    private static LockManager deaf(String app) {
        SINGLE.node(0)
                .command("ACL", "SETUSER", "deaf", "on", ">deaf-pw", "~*", "resetchannels", "&lockwarden:*", "+@all");
        return LockManager.builder()
                .redis("redis://deaf:deaf-pw@127.0.0.1:" + SINGLE.node(0).port())
                .application(app)
                .shutdownHook(false)
                .build();
    }

    private static LockManager single(String app) {
        return LockManager.builder()
                .redis(SINGLE.uri())
                .application(app)
                .shutdownHook(false)
                .build();
    }

    private static BlockingQueue<LockLostEvent> lostEvents(LockHandle h) {
        BlockingQueue<LockLostEvent> q = new ArrayBlockingQueue<>(4);
        h.onLost(q::add);
        return q;
    }

    @Test
    void watchdogRefreshReportsForceReleasedByTheOperator() throws Exception {
        try (LogCapture log = new LogCapture();
                LockManager holder = deaf("fr-holder");
                LockManager ops = single("fr-ops")) {
            LockHandle h = holder.acquire("job:nightly", LockOptions.ttl(Duration.ofSeconds(1)));
            BlockingQueue<LockLostEvent> lost = lostEvents(h);
            assertTrue(ops.inspector().forceRelease("job:nightly", "alice").released());
            LockLostEvent e = lost.poll(3, TimeUnit.SECONDS); // next refresh within TTL/3
            assertNotNull(e, "holder told within its TTL");
            assertTrue(e.reason().startsWith("force-released by operator 'alice'"), e.reason());
            assertFalse(h.isHeld());
            List<String> warnings = log.warnings(ENGINE_LOGGER).stream()
                    .filter(w -> w.contains("job:nightly"))
                    .toList();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("force-released by operator 'alice'"), warnings.get(0));
        }
    }

    @Test
    void extendReportsForceReleased() throws Exception {
        try (LockManager holder = deaf("fr-holder");
                LockManager ops = single("fr-ops")) {
            LockHandle h = holder.acquire(
                    "job:manual", LockOptions.ttl(Duration.ofSeconds(30)).autoRefresh(false));
            BlockingQueue<LockLostEvent> lost = lostEvents(h);
            assertTrue(ops.inspector().forceRelease("job:manual", "bob").released());
            Thread.sleep(1_000);
            assertTrue(h.isHeld(), "a holder that cannot hear the message was told anyway: by what?");
            assertFalse(h.extend(Duration.ofSeconds(30)));
            LockLostEvent e = lost.poll(3, TimeUnit.SECONDS);
            assertNotNull(e);
            assertTrue(e.reason().startsWith("force-released by operator 'bob'"), e.reason());
        }
    }

    @Test
    void tokenGoneOtherwiseKeepsTheGenericReasonAndAnOldMarkerIsNotReused() throws Exception {
        try (LockManager holder = single("fr-holder");
                LockManager ops = single("fr-ops")) {
            // first holder force-released: the marker now names its token
            LockHandle first = holder.acquire("job:x", LockOptions.ttl(Duration.ofSeconds(1)));
            BlockingQueue<LockLostEvent> firstLost = lostEvents(first);
            assertTrue(ops.inspector().forceRelease("job:x", "carol").released());
            assertNotNull(firstLost.poll(3, TimeUnit.SECONDS));
            // the next holder's token disappears without a force-release (expired / taken over)
            LockHandle second = holder.acquire("job:x", LockOptions.ttl(Duration.ofSeconds(1)));
            BlockingQueue<LockLostEvent> secondLost = lostEvents(second);
            SINGLE.node(0).command("DEL", "lock:{job:x}");
            LockLostEvent e = secondLost.poll(3, TimeUnit.SECONDS);
            assertNotNull(e);
            assertEquals(
                    "Redis no longer has our token: the lock expired, was force-released or was taken over",
                    e.reason());
            // the TTL passing with autoRefresh off keeps its own reason
            LockHandle third = holder.acquire(
                    "job:y", LockOptions.ttl(Duration.ofMillis(300)).autoRefresh(false));
            BlockingQueue<LockLostEvent> thirdLost = lostEvents(third);
            LockLostEvent t = thirdLost.poll(3, TimeUnit.SECONDS);
            assertNotNull(t);
            assertTrue(t.reason().startsWith("its TTL of 300 ms passed"), t.reason());
        }
    }

    @Test
    void redlockHolderLearnsItWasForceReleased() throws Exception {
        String[] uris = REDLOCK.uris().toArray(String[]::new);
        try (LockManager holder = LockManager.builder()
                        .redlock(uris)
                        .application("fr-rl")
                        .shutdownHook(false)
                        .build();
                LockManager ops = LockManager.builder()
                        .redlock(uris)
                        .application("fr-rl-ops")
                        .shutdownHook(false)
                        .build()) {
            LockHandle h = holder.acquire("job:rl", LockOptions.ttl(Duration.ofSeconds(1)));
            BlockingQueue<LockLostEvent> lost = lostEvents(h);
            assertTrue(ops.inspector().forceRelease("job:rl", "dave").released());
            LockLostEvent e = lost.poll(3, TimeUnit.SECONDS);
            assertNotNull(e);
            assertTrue(e.reason().startsWith("force-released by operator 'dave'"), e.reason());
        }
    }
}
