package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redlock's phase 2 (raise the fence on a majority) runs only when the nodes' phase-1 fences do not
 * agree: a name taken again within one second by healthy nodes agrees (counter + 1 everywhere, the
 * floor is the whole second), so a cycle is two script calls per node, not three; so does a new name once
 * each node's fence epoch (the moment it was last found without data) is a second old. The fences stay
 * strictly increasing, also across a loss of every node's data, and the counter equals the last token
 * handed out.
 */
class RedlockFenceAgreementTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    private static final LockOptions TTL = LockOptions.ttl(Duration.ofSeconds(10));
    private static final int CYCLES = 40;

    @Test
    void aNameTakenAgainWithinASecondSkipsPhaseTwo() {
        REDIS.flushAll();
        try (LockManager locks = redlock()) {
            locks.acquire("agree:warm-up", TTL).release(); // scripts loaded, connections open
            long[] before = settledScriptCalls();
            long allBefore = allCalls();
            long firstSecond = System.currentTimeMillis() / 1000;
            long last = 0;
            for (int i = 0; i < CYCLES; i++) {
                LockHandle h = locks.acquire("agree:x", TTL);
                assertTrue(h.fencingToken() > last, "fence " + h.fencingToken() + " after " + last);
                last = h.fencingToken();
                h.release();
            }
            long seconds = System.currentTimeMillis() / 1000 - firstSecond + 1;
            long[] after = settledScriptCalls();
            System.out.printf(
                    "Redlock, one name, %d cycles over %d s: node 0 ran %.2f script calls and %.2f commands"
                            + " (inner ones included, INFO commandstats) per cycle%n",
                    CYCLES,
                    seconds,
                    (after[0] - before[0]) / (double) CYCLES,
                    (allCalls() - allBefore - 2) / (double) CYCLES);
            // acquire + release per cycle; phase 2 for the first (no counter yet) and at most once per
            // second boundary; +2 slack for a repeated (idempotent) attempt. Phase 2 on every acquire: 3 per cycle.
            long bound = 2L * CYCLES + 1 + seconds + 2;
            for (int n = 0; n < after.length; n++) {
                long calls = after[n] - before[n];
                assertTrue(
                        calls >= 2L * CYCLES && calls <= bound,
                        "node " + n + ": " + calls + " script calls for " + CYCLES + " cycles over " + seconds
                                + " s (bound " + bound + ", " + 3 * CYCLES + " with phase 2 each time)");
            }
            assertEquals(last, locks.inspector().fenceOf("agree:x"), "the counter is the last token handed out");
        }
    }

    @Test
    void aNewNameSkipsPhaseTwoOnceTheNodesEpochIsASecondOld() throws InterruptedException {
        REDIS.flushAll();
        try (LockManager locks = redlock()) {
            locks.acquire("agree:warm-up", TTL).release(); // sets each node's fence epoch (its data was flushed)
            Thread.sleep(1_100); // the epoch is now in an earlier second than every acquire below
            long[] before = settledScriptCalls();
            long firstSecond = System.currentTimeMillis() / 1000;
            for (int i = 0; i < CYCLES; i++) {
                LockHandle h = locks.acquire("agree:new:" + i, TTL);
                long second = System.currentTimeMillis() / 1000 * 1_000_000;
                // a name's first fence: the whole second (another name may have the same one: fences are per name)
                assertTrue(Math.abs(h.fencingToken() - second) <= 1_000_000, "fence " + h.fencingToken());
                h.release();
            }
            long seconds = System.currentTimeMillis() / 1000 - firstSecond + 1;
            long[] after = settledScriptCalls();
            System.out.printf(
                    "Redlock, %d new names: node 0 ran %.2f script calls per cycle%n",
                    CYCLES, (after[0] - before[0]) / (double) CYCLES);
            // the whole second everywhere, stored in phase 1: phase 2 only where a second boundary split the nodes
            long bound = 2L * CYCLES + seconds + 2;
            for (int n = 0; n < after.length; n++) {
                long calls = after[n] - before[n];
                assertTrue(
                        calls >= 2L * CYCLES && calls <= bound,
                        "node " + n + ": " + calls + " script calls (bound " + bound + ", " + 3 * CYCLES
                                + " with phase 2 each time)");
            }
        }
    }

    @Test
    void aNameTakenAgainInALaterSecondSkipsPhaseTwo() throws InterruptedException {
        REDIS.flushAll();
        try (LockManager locks = redlock()) {
            locks.acquire("agree:warm-up", TTL).release(); // sets each node's fence epoch
            for (int i = 0; i < 3; i++) {
                locks.acquire("agree:again:" + i, TTL).release();
            }
            Thread.sleep(1_100); // each counter is now behind the clock's second
            long[] before = settledScriptCalls();
            for (int i = 0; i < 3; i++) {
                locks.acquire("agree:again:" + i, TTL).release();
            }
            long[] after = settledScriptCalls();
            for (int n = 0; n < after.length; n++) {
                long calls = after[n] - before[n];
                // 3 cycles of acquire + release; +1 for a second boundary that split the nodes' answers
                assertTrue(calls >= 6 && calls <= 7, "node " + n + ": " + calls + " script calls (9 with phase 2)");
            }
        }
    }

    @Test
    void aNewNameRightAfterTheNodesLostTheirDataStillTakesPhaseTwo() {
        REDIS.flushAll(); // no epoch: the nodes' data is new, so a missing counter may have been lost just now
        try (LockManager locks = redlock()) {
            long[] before = settledScriptCalls();
            locks.acquire("agree:fresh", TTL).release();
            long[] after = settledScriptCalls();
            for (int n = 0; n < after.length; n++) {
                long calls = after[n] - before[n];
                assertTrue(
                        calls >= 3 && calls <= 4,
                        "node " + n + ": " + calls + " script calls (acquire, phase 2, release)");
            }
        }
    }

    @Test
    void aCounterLostWithinTheSecondOfItsLastFenceStillGivesAHigherFence() {
        REDIS.flushAll();
        try (LockManager locks = redlock()) {
            for (int round = 0; round < 5; round++) {
                long last = 0;
                for (int i = 0; i < 5; i++) {
                    LockHandle h = locks.acquire("agree:lost", TTL);
                    assertTrue(h.fencingToken() > last, "fence " + h.fencingToken() + " after " + last);
                    last = h.fencingToken();
                    h.release();
                }
                REDIS.flushAll(); // every node loses its counters (and its epoch) within the same second
                LockHandle h = locks.acquire("agree:lost", TTL);
                assertTrue(
                        h.fencingToken() > last,
                        "round " + round + ": fence " + h.fencingToken() + " after the loss, " + last + " before");
                h.release();
            }
        }
    }

    private static LockManager redlock() {
        return LockManager.builder()
                .redlock(REDIS.uris().toArray(String[]::new))
                .application("agree")
                .shutdownHook(false)
                .build();
    }

    /** Every command so far on node 0 (the INFO call itself counts once). */
    private static long allCalls() {
        long sum = 0;
        for (String line : REDIS.node(0).command("INFO", "commandstats").split("\\r?\\n")) {
            if (line.startsWith("cmdstat_")) {
                sum += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
            }
        }
        return sum;
    }

    /**
     * {@link #scriptCalls()} once no node's count moved for 100 ms (at most 5 s): a fan-out returns at
     * the quorum, so a slower node may still run the last calls in the background.
     */
    private static long[] settledScriptCalls() {
        long[] last = scriptCalls();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long[] now = scriptCalls();
            if (java.util.Arrays.equals(now, last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** EVALSHA + EVAL calls so far on each node (INFO commandstats). */
    private static long[] scriptCalls() {
        long[] out = new long[REDIS.nodes().size()];
        for (int n = 0; n < out.length; n++) {
            for (String line : REDIS.node(n).command("INFO", "commandstats").split("\\r?\\n")) {
                if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                    out[n] += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
                }
            }
        }
        return out;
    }
}
