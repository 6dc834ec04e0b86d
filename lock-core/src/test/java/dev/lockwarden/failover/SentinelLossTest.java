package dev.lockwarden.failover;

import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
        AtomicReference<LockLostEvent> lost = new AtomicReference<>();
        AtomicLong lostAt = new AtomicLong();
        held.onLost(e -> {
            lostAt.set(System.nanoTime());
            lost.set(e);
        });

        long killed = System.nanoTime();
        group.killMaster();
        RedisNode promoted = group.awaitPromotion(old, SentinelFailoverTest.PROMOTION);
        long promotion = System.nanoTime();
        assertNull(promoted.command("GET", "lock:{" + NAME + "}"), "the promoted replica missed the lock");

        long deadline = promotion + Duration.ofSeconds(3).toNanos();
        while (lost.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertNotNull(lost.get(), "the holder was not told within 3 s of the promotion");
        long afterPromotion = (lostAt.get() - promotion) / 1_000_000;
        System.out.printf(
                "sentinel: promotion %d ms after SIGKILL; holder told LOST %d ms after SIGKILL, %d ms after the"
                        + " promotion was seen by the test (%s)%n",
                (promotion - killed) / 1_000_000,
                (lostAt.get() - killed) / 1_000_000,
                afterPromotion,
                lost.get().reason());
        assertTrue(afterPromotion <= 1_000, "told " + afterPromotion + " ms after the promotion");
        assertTrue(
                lostAt.get() - acquired < Duration.ofSeconds(10).toNanos(),
                "told only at the watchdog's scheduled refresh, not at the master switch");
        // told by the re-check on +switch-master, or by a refresh the watchdog retried after the old master
        // stopped answering, whichever reached the new master first: both find the token gone there
        assertTrue(
                lost.get().reason().contains("re-checked after a failover of mymaster")
                        || lost.get().reason().contains("no longer has our token"),
                lost.get().reason());
        assertThrows(LockLostException.class, held::checkHeld);

        // the control: the double grant is real, a second client gets the lock on the new master
        Optional<LockHandle> second = clients.on("holder-b", promoted).tryAcquire(NAME, OPTS);
        assertTrue(second.isPresent(), "the second client was refused: the lock was not lost");
        assertTrue(second.get().fencingToken() > held.fencingToken());
    }
}
