package dev.lockwarden.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Closing a manager whose pub/sub connection listens (the force-released channel and its control channel)
 * gives that pooled connection back with every reply read: the calls that run during the close on the same
 * pool (the last activity counts, events) get their own replies, not an UNSUBSCRIBE's. An interrupt of the
 * bus thread, or a second UNSUBSCRIBE, would leave one unread ("ArrayList cannot be cast to Long").
 */
class PubSubCloseTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Test
    void closingAListeningManagerLeavesNoUnreadReplyOnAPooledConnection() throws Exception {
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < 10; i++) {
                LockManager m = LockManager.builder()
                        .cluster(REDIS.uris().toArray(String[]::new))
                        .application("close-" + i)
                        .shutdownHook(false)
                        .build();
                // a lock: the manager listens from then on, and the close has activity counts to write
                try (LockHandle h = m.acquire("close:" + i, LockOptions.ttl(Duration.ofSeconds(30)))) {
                    assertTrue(h.isHeld());
                }
                awaitSubscribers(1, i, log);
                m.close();
                awaitSubscribers(0, i, log);
            }
            List<String> warnings = log.records.stream()
                    .filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                    .map(r -> r.getLoggerName() + ": " + r.getMessage())
                    .toList();
            assertEquals(List.of(), warnings, "warnings while closing");
            assertTrue(
                    log.records.stream().map(LogRecord::getLoggerName).noneMatch(n -> n.endsWith("ActivityCounter")),
                    "the activity counter logged");
        }
    }

    private static void awaitSubscribers(long n, int round, LogCapture log) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (subscribers() != n) {
            assertTrue(
                    System.nanoTime() < until,
                    () -> "round " + round + ": subscribers of lock:force-released: " + subscribers() + ", not " + n
                            + "; log: "
                            + log.records.stream().map(LogRecord::getMessage).toList());
            Thread.sleep(5);
        }
    }

    /** Subscribers of lock:force-released on all nodes (a cluster node counts its own clients only). */
    private static long subscribers() {
        long n = 0;
        for (RedisNode node : REDIS.nodes()) {
            String[] reply =
                    node.command("PUBSUB", "NUMSUB", "lock:force-released").split("\n");
            n += Long.parseLong(reply[reply.length - 1].strip());
        }
        return n;
    }
}
