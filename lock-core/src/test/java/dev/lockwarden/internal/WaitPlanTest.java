package dev.lockwarden.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The waiting policy alone: each answer to "what next?" from the budget, wake-ups and the holder's TTL. */
class WaitPlanTest {
    private static final long T0 = 1_000_000_000L;

    private static long at(long millis) {
        return T0 + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static WaitPlan plan(long waitMillis, long retryMillis) {
        return new WaitPlan(T0, Duration.ofMillis(waitMillis), Duration.ofMillis(retryMillis));
    }

    @Test
    void aSingleAttemptNeverWaitsAndGivesUpAtOnce() {
        WaitPlan p = plan(0, 1_000);
        assertFalse(p.mayWait());
        assertEquals(
                WaitPlan.Action.GIVE_UP, p.afterBusy(T0, false, false, 5_000).action());
        assertFalse(p.retryAfterPoolBusy(T0), "a busy pool is reported, not retried");
        assertEquals(-1, p.pauseAfterSlowStore(T0));
    }

    @Test
    void theFirstBusyAnswerListensBeforeWaiting() {
        WaitPlan p = plan(10_000, 1_000);
        assertTrue(p.mayWait());
        WaitPlan.Next n = p.afterBusy(at(1), false, false, 5_000);
        assertEquals(WaitPlan.Action.LISTEN, n.action());
        assertEquals(WaitPlan.SUBSCRIBE_WAIT_MILLIS, n.millis());
        WaitPlan.Next late = plan(10_000, 1_000).afterBusy(at(9_700), false, false, 5_000);
        assertEquals(300, late.millis(), "the subscription wait never outlasts the budget");
    }

    @Test
    void theBackoffGrowsToTheRetryIntervalAndStaysWithinTheHolderTtlAndTheBudget() {
        WaitPlan p = plan(60_000, 1_000);
        long first = p.afterBusy(at(1), true, true, 50_000).millis();
        long second = p.afterBusy(at(2), true, true, 50_000).millis();
        long third = p.afterBusy(at(3), true, true, 50_000).millis();
        assertTrue(first >= 187 && first <= 250, "a quarter of the interval, jittered: " + first);
        assertTrue(second >= 375 && second <= 500, "half: " + second);
        assertTrue(third >= 750 && third <= 1_000, "the interval: " + third);
        assertEquals(8, p.afterBusy(at(4), true, true, 7).millis(), "the lock is free when the holder's TTL ends");
        assertEquals(
                WaitPlan.Action.WAIT,
                p.afterBusy(at(59_995), true, true, 50_000).action());
        assertTrue(p.afterBusy(at(59_995), true, true, 50_000).millis() <= 5, "never past the deadline");
        assertEquals(
                WaitPlan.Action.GIVE_UP,
                p.afterBusy(at(60_000), true, true, 50_000).action());
    }

    @Test
    void aWakeUpThatStillFoundTheLockBusyRetriesQuicklyThenFallsBack() {
        WaitPlan p = plan(60_000, 1_000);
        p.woken();
        for (int i = 0; i < WaitPlan.QUICK_RETRIES; i++) {
            assertEquals(2L << i, p.afterBusy(at(10), true, true, 50_000).millis(), "quick retry " + i);
        }
        long fallback = p.afterBusy(at(10), true, true, 50_000).millis();
        assertTrue(fallback >= 187 && fallback <= 250, "then the ordinary backoff from its start: " + fallback);
    }

    @Test
    void anUnheardChannelIsPolledSoonerWithDoublingWaits() {
        WaitPlan p = plan(600_000, 60_000);
        long[] expected = {250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 16_000};
        for (int i = 0; i < expected.length; i++) {
            long sleep = p.afterBusy(at(10), true, false, -1).millis();
            assertTrue(sleep <= expected[i], "unheard wait " + i + ": " + sleep);
            assertTrue(
                    sleep >= Math.min(expected[i], 15_000), "unheard wait " + i + " not shorter than needed: " + sleep);
        }
        assertTrue(p.afterBusy(at(10), true, true, -1).millis() > 16_000, "heard again: the ordinary fallback");
    }

    @Test
    void storeTroubleIsRetriedOnlyWithinTheBudget() {
        WaitPlan p = plan(1_000, 100);
        assertTrue(p.retryAfterPoolBusy(at(999)));
        assertFalse(p.retryAfterPoolBusy(at(1_000)));
        assertEquals(WaitPlan.SLOW_STORE_RETRY_MILLIS, p.pauseAfterSlowStore(at(900)));
        assertEquals(-1, p.pauseAfterSlowStore(at(950)), "no budget for another pause: report the slow store");
    }

    @Test
    void queueingBehindLocalWaitersIsShortWhileTheChannelIsUnheard() {
        WaitPlan p = plan(60_000, 4_000);
        long heard = p.queueMillis(true);
        assertTrue(heard >= 750 && heard <= 1_000, "a quarter of the interval: " + heard);
        assertEquals(WaitPlan.UNHEARD_RETRY_MILLIS, p.queueMillis(false));
    }
}
