package dev.lockwarden.admin.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The health strip's total of held locks: counted in the background through {@code LockInspector.count},
 * exact for 100,000 locks within its budget, counted again only after {@link HealthService#COUNT_EVERY}, and
 * honest ("≥ …, count stopped after …") when the budget is too short.
 */
@Timeout(120)
class HeldCountTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    static final int LOCKS = 100_000;

    @BeforeAll
    static void hundredThousandLocks() {
        BulkLocks.acquire(REDIS.node(0), LOCKS);
        assertEquals(
                Integer.toString(LOCKS * 2 + 1), REDIS.node(0).command("DBSIZE").trim());
    }

    @Test
    void exactTotalOf100kLocksWithinTheBudgetRecountedOnlyAfterThirtySeconds() {
        try (LockManager admin = LockManager.builder().redis(REDIS.uri()).build()) {
            MovableClock clock = new MovableClock();
            HealthService service = new HealthService(admin.inspector(), admin::describeRedis, clock);
            HeldLocks h = await(service, x -> true);
            System.out.printf(
                    "%s: counted in %d ms (budget %s)%n", h.text(), h.took().toMillis(), h.budget());
            assertTrue(h.complete(), h.toString());
            assertEquals(LOCKS, h.count());
            assertEquals("100,000 locks held", h.text());
            assertTrue(h.took().compareTo(HealthService.COUNT_BUDGET) < 0, h.toString());

            try (var extra = admin.acquire("one-more", LockOptions.ttl(Duration.ofSeconds(60)))) {
                clock.advance(HealthService.COUNT_EVERY.minusSeconds(1));
                sleep(1_000);
                assertSame(h, service.held().orElseThrow(), "no new count before 30 s: the cached total is shown");
                clock.advance(Duration.ofSeconds(1));
                HeldLocks again = await(service, x -> x != h);
                assertEquals(new HeldLocks(LOCKS + 1, true, again.budget(), again.took(), again.at()), again);
                assertEquals("100,001 locks held", again.text());
            }
        }
    }

    @Test
    void aCountCutShortSaysSo() {
        try (LockManager admin = LockManager.builder().redis(REDIS.uri()).build()) {
            HealthService service = new HealthService(
                    admin.inspector(), admin::describeRedis, Clock.systemUTC(), Duration.ofMillis(100));
            HeldLocks h = await(service, x -> true);
            System.out.println("with a 100 ms budget: " + h.text());
            assertFalse(h.complete(), h.toString());
            assertTrue(h.count() < LOCKS, h.toString());
            assertEquals(
                    "≥ " + String.format(java.util.Locale.ROOT, "%,d", h.count())
                            + " locks held, count stopped after 100 ms",
                    h.text());
        }
    }

    private static HeldLocks await(HealthService service, Predicate<HeldLocks> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<HeldLocks> h = service.held();
            if (h.isPresent() && wanted.test(h.get())) {
                return h.get();
            }
            sleep(20);
        }
        throw new AssertionError("no count within 30 s; the last: " + service.held());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static final class MovableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
