package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.contract.WakeLatency;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A waiter whose subscription Redis has not confirmed never sleeps through a release: it looks
 * again soon (250 ms, doubling) until it is listening, instead of sleeping out the fallback interval.
 */
class RedlockUnheardWaiterTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    @Test
    void aWaiterNotListeningYetLooksAgainSoonInsteadOfSleepingThroughARelease() throws Exception {
        String[] uris = REDIS.uris().toArray(String[]::new);
        Duration nodeTimeout = Duration.ofMillis(300);
        try (LockManager a = LockManager.builder()
                        .redlock(uris)
                        .timeout(nodeTimeout)
                        .application("a")
                        .build();
                LockManager b = LockManager.builder()
                        .redlock(uris)
                        .timeout(nodeTimeout)
                        .application("b")
                        .build()) {
            // b's wake-up connection listens on node 0 (the first node) and works: a release wakes b at once
            LockOptions quick = LockOptions.ttl(Duration.ofSeconds(10));
            long baseline = WakeLatency.afterRelease(
                    a,
                    b,
                    "unheard:baseline",
                    quick,
                    quick.waitUpTo(Duration.ofSeconds(20)).retryInterval(Duration.ofSeconds(5)),
                    300,
                    Duration.ofSeconds(40));
            assertTrue(baseline < 2_000, "baseline wake-up took " + baseline + " ms");
            // Node 0 frozen: acquires and releases still reach the quorum on nodes 1 and 2, but b's SUBSCRIBE
            // for a new name goes out on its connection to node 0 and is never confirmed, and no release
            // message reaches b. With a 60 s retry interval and TTL the fallback sleep is >= 11.25 s.
            REDIS.node(0).pause();
            try {
                LockOptions holding = LockOptions.ttl(Duration.ofSeconds(60));
                LockOptions waiting = holding.waitUpTo(Duration.ofSeconds(40)).retryInterval(Duration.ofSeconds(60));
                long ms = WakeLatency.afterRelease(a, b, "unheard:x", holding, waiting, 2_500, Duration.ofSeconds(40));
                assertTrue(
                        ms < 4_000,
                        "waiter got the lock " + ms + " ms after the release while its subscription was"
                                + " unconfirmed (bound 4,000 ms; sleeping out the fallback interval takes >= 11,250 ms)");
            } finally {
                REDIS.node(0).resume();
            }
        }
    }
}
