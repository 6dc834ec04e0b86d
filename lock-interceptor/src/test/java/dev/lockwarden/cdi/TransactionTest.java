package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.cdi.beans.LostEvents;
import dev.lockwarden.cdi.tx.Checkout;
import dev.lockwarden.cdi.tx.Ledger;
import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @Locked} inside a caller's JTA transaction (Narayana, a real transaction manager, in Weld
 * through Arquillian) against a real redis-server: release after completion, rollback-only if lost.
 */
class TransactionTest extends WeldOnRedisTest {

    @Inject
    Ledger ledger;

    @Inject
    TransactionManager tm;

    @Inject
    LostEvents lostEvents;

    @Inject
    LockManager locks;

    @Inject
    Checkout checkout;

    @Deployment
    static JavaArchive deployment() {
        return ShrinkWrap.create(JavaArchive.class, "tx-test.jar")
                .addPackage(Ledger.class.getPackage())
                .addClass(LostEvents.class)
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    @BeforeAll
    static void pointAtRedis() {
        System.setProperty("com.arjuna.ats.arjuna.objectstore.objectStoreDir", "target/narayana-store");
        System.setProperty("ObjectStoreEnvironmentBean.objectStoreDir", "target/narayana-store");
        Checkout.otherInstance = otherJvm;
    }

    private void fresh() throws Exception {
        redis.flushAll();
        lostEvents.reset();
        if (tm.getTransaction() != null) {
            tm.rollback();
        }
    }

    @Test
    void lockIsHeldAfterTheMethodReturnsUntilTheTransactionCommits() throws Exception {
        fresh();
        tm.begin();
        long fence = ledger.write("A");

        assertTrue(
                otherJvm.tryAcquire("ledger:A", LockOptions.ttl(Duration.ofSeconds(5)))
                        .isEmpty(),
                "between return and commit another instance must not get the lock (it would read uncommitted state)");
        assertEquals(fence, locks.inspector().get("ledger:A").orElseThrow().fencingToken());
        tm.commit();

        assertEquals(Status.STATUS_COMMITTED, ledger.lastStatus());
        assertTrue(locks.inspector().get("ledger:A").isEmpty(), "released after commit");
        try (LockHandle again = otherJvm.tryAcquire("ledger:A", LockOptions.ttl(Duration.ofSeconds(5)))
                .orElseThrow()) {
            assertTrue(again.isHeld());
        }
        assertEquals(List.of(), lostEvents.seen());
    }

    @Test
    void rollbackReleasesTheLockToo() throws Exception {
        fresh();
        tm.begin();
        ledger.write("B");
        assertTrue(locks.inspector().get("ledger:B").isPresent());
        tm.rollback();

        assertEquals(Status.STATUS_ROLLEDBACK, ledger.lastStatus());
        assertTrue(locks.inspector().get("ledger:B").isEmpty(), "released after rollback");
    }

    @Test
    void lockLostAfterReturnButBeforeCommitRollsTheTransactionBack() throws Exception {
        fresh();
        tm.begin();
        ledger.writeShortLease("C");
        locks.inspector().forceRelease("ledger:C", "test operator");
        Thread.sleep(600); // the watchdog notices before the commit

        assertThrows(RollbackException.class, tm::commit, "beforeCompletion marked the transaction rollback-only");
        assertEquals(Status.STATUS_ROLLEDBACK, ledger.lastStatus(), "the lost holder's work was undone, not committed");
        List<LockLostEvent> events = lostEvents.seen();
        assertEquals(1, events.size(), events.toString());
        assertEquals(LockLostEvent.Outcome.ROLLED_BACK, events.get(0).outcome());
        assertEquals("ledger:C", events.get(0).lockName());
    }

    @Test
    void lockLostWhileTheMethodRunsMarksRollbackOnlyAndThrows() throws Exception {
        fresh();
        tm.begin();
        var lost = assertThrows(LockLostException.class, () -> ledger.loseWhileWriting("D"));
        assertTrue(lost.getMessage().contains("its transaction was marked rollback-only"), lost.getMessage());
        assertEquals(Status.STATUS_MARKED_ROLLBACK, tm.getStatus());
        assertThrows(RollbackException.class, tm::commit);
        assertEquals(Status.STATUS_ROLLEDBACK, ledger.lastStatus());
        assertEquals(
                1,
                lostEvents.seen().size(),
                "one event, although both the method end and beforeCompletion saw the loss");
    }

    @Test
    void aTransactionalCallerCommitsBeforeTheLockIsReleased() throws Exception {
        fresh();
        assertEquals(
                false,
                checkout.otherCouldLockBeforeCommit("F"),
                "inside the @Transactional caller, after the @Locked method returned, the lock is still held");
        assertEquals(Status.STATUS_COMMITTED, ledger.lastStatus());
        assertTrue(locks.inspector().get("ledger:F").isEmpty(), "released once the caller's transaction committed");
    }

    @Test
    void lockedAndTransactionalOnOneMethodRunTheTransactionInsideTheLock() throws Exception {
        fresh();
        assertEquals(
                Status.STATUS_ACTIVE,
                checkout.bothOnOneMethod("G"),
                "@Transactional (+200) runs inside @Locked (+100)");
        assertTrue(locks.inspector().get("ledger:G").isEmpty());
    }

    @Test
    void withoutATransactionTheLockIsReleasedAtReturn() throws Exception {
        fresh();
        ledger.write("E");
        assertTrue(locks.inspector().get("ledger:E").isEmpty());
    }
}
