package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The health strip's reading on a Redis Sentinel group: the deployment names the master the sentinels
 * name now and the replicas that master reports; after a failover, the next reading names the promoted
 * master (the description is read again each time, not once at start-up).
 */
@Timeout(120)
class SentinelHealthTest {

    @Test
    void showsTheCurrentMasterAndItsReplicasAndFollowsAFailover() {
        try (RedisSentinelGroup group = new RedisSentinelGroup(false).start();
                LockManager admin = LockManager.builder()
                        .sentinel(
                                RedisSentinelGroup.MASTER_NAME,
                                group.sentinelUris().toArray(String[]::new))
                        .application("health-test")
                        .shutdownHook(false)
                        .build()) {
            MovableClock clock = new MovableClock();
            HealthService service = new HealthService(admin.inspector(), admin::describeRedis, clock);
            RedisNode master = group.master();
            Health h = reading(service, clock, x -> x.replicas().size() == 2);
            assertEquals(Optional.empty(), h.error());
            assertEquals("Sentinel mymaster, master 127.0.0.1:" + master.port(), h.deployment());
            List<Integer> replicaPorts = group.dataNodes().stream()
                    .filter(n -> n != master)
                    .map(RedisNode::port)
                    .toList();
            for (int port : replicaPorts) {
                assertTrue(
                        h.replicas().stream().anyMatch(r -> r.startsWith("127.0.0.1:" + port + " online, lag ")),
                        h.replicas().toString());
            }

            group.killMaster();
            RedisNode promoted = group.awaitPromotion(master, Duration.ofSeconds(60));
            assertNotEquals(master.port(), promoted.port());
            Health after = reading(service, clock, x -> x.deployment().endsWith(":" + promoted.port()));
            assertEquals("Sentinel mymaster, master 127.0.0.1:" + promoted.port(), after.deployment());
        }
    }

    /** Moves the clock past {@link HealthService#MAX_AGE} until a reading matches (at most 30 s). */
    private static Health reading(HealthService service, MovableClock clock, Predicate<Health> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Health last = null;
        while (System.nanoTime() < deadline) {
            Optional<Health> h = service.health();
            if (h.isPresent()) {
                last = h.get();
                if (wanted.test(last)) {
                    return last;
                }
                clock.advance(HealthService.MAX_AGE);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no matching health reading within 30 s; the last: " + last);
    }

    private static final class MovableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
