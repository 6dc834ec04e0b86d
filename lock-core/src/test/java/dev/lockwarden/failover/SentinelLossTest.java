package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lock the promoted replica never received (replication held back, master SIGKILLed): a holder on
 * {@code .sentinel(...)} is told LOST within a second of the promotion, because the manager re-checks
 * every lock it holds on the new master as soon as a sentinel announces the switch. The control is the
 * second client that gets the same lock (the double grant is real); {@link SentinelFailoverTest} is the
 * control of a client pointed straight at the master node, which is not told until its TTL passes.
 */
@Timeout(120)
class SentinelLossTest {
    private static final String NAME = "payment:43";
    /** The watchdog's first scheduled refresh is 10 s after the acquisition: far after the promotion. */
    private static final LockOptions OPTS = LockOptions.ttl(Duration.ofSeconds(30));

    private RedisSentinelGroup group;
    private final Clients clients = new Clients();

    @BeforeEach
    void start() {
        group = new RedisSentinelGroup(true).start();
    }

    @AfterEach
    void stop() {
        clients.close();
        group.close();
    }

    @Test
    void aLockThePromotedReplicaLacksIsReportedLostWithinASecondOfThePromotion() throws InterruptedException {
        LockManager first = clients.onSentinel("holder-a", group);
        RedisNode old = group.master();
        group.holdReplication();
        long acquired = System.nanoTime();
        LockHandle held = first.acquire(NAME, OPTS);
        LossClock clock = new LossClock(held, acquired);

        long killed = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        long promotion = System.nanoTime();
        assertNull(promoted.command("GET", "lock:{" + NAME + "}"), "the promoted replica missed the lock");

        LockLostEvent lost = clock.assertToldSoonAfter("sentinel", killed, promotion);
        // told by the re-check on +switch-master, or by a refresh the watchdog retried after the old master
        // stopped answering, whichever reached the new master first: both find the token gone there
        assertTrue(
                lost.reason().contains("re-checked after a failover of mymaster")
                        || lost.reason().contains("no longer has our token"),
                lost.reason());
        assertThrows(LockLostException.class, held::checkHeld);

        // the control: the double grant is real, a second client gets the lock on the new master
        Optional<LockHandle> second = clients.on("holder-b", promoted).tryAcquire(NAME, OPTS);
        assertTrue(second.isPresent(), "the second client was refused: the lock was not lost");
        assertTrue(second.get().fencingToken() > held.fencingToken());
    }

    /**
     * Locks taken with {@code autoRefresh(false)} are re-checked too, without being extended: the one the
     * promoted replica lacks is told LOST within a second (before this check existed, only when its 30 s TTL
     * passed); the one it has stays held, and its key on the new master expires no later than before.
     */
    @Test
    void unrefreshedLocksAreRecheckedWithoutBeingExtended() throws InterruptedException {
        LockManager first = clients.onSentinel("holder-a", group);
        RedisNode old = group.master();
        LockOptions unrefreshed = OPTS.autoRefresh(false);
        long keptAt = System.nanoTime();
        LockHandle kept = first.acquire(NAME + ":kept", unrefreshed);
        old.command("WAIT", "1", "5000"); // the replica has this one
        group.holdReplication();
        long acquired = System.nanoTime();
        LockHandle held = first.acquire(NAME, unrefreshed);
        LossClock clock = new LossClock(held, acquired);

        long killed = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        long promotion = System.nanoTime();
        assertNull(promoted.command("GET", "lock:{" + NAME + "}"), "the promoted replica missed the lock");

        LockLostEvent lost = clock.assertToldSoonAfter("sentinel, autoRefresh(false)", killed, promotion);
        assertTrue(lost.reason().contains("re-checked after a failover of mymaster"), lost.reason());
        assertThrows(LockLostException.class, held::checkHeld);

        assertTrue(kept.isHeld(), "the lock the promoted replica has was reported lost");
        long pttl = Long.parseLong(promoted.command("PTTL", "lock:{" + NAME + ":kept}"));
        long leftBefore = 30_000 - (System.nanoTime() - keptAt) / 1_000_000;
        assertTrue(
                pttl > 0 && pttl <= leftBefore + 50,
                "extended by the re-check: PTTL " + pttl + " ms, " + leftBefore + " ms were left");
        kept.release();

        Optional<LockHandle> second = clients.on("holder-b", promoted).tryAcquire(NAME, OPTS);
        assertTrue(second.isPresent(), "the second client was refused: the lock was not lost");
    }
}
