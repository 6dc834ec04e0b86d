package dev.lockwarden.examples.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The payments example in a real Weld SE container against a real redis-server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PaymentsTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private WeldContainer cdi;

    @AfterEach
    void shutdown() {
        if (cdi != null) {
            cdi.close();
        }
        System.clearProperty(PaymentsConfig.JDBC_PROPERTY);
        System.clearProperty("lockwarden.redis");
        System.clearProperty("lockwarden.application");
    }

    private WeldContainer boot(String jdbcUrl) {
        redis.flushAll();
        System.setProperty(PaymentsConfig.JDBC_PROPERTY, jdbcUrl);
        cdi = PaymentsApp.boot(redis.uri(), "payments-test");
        return cdi;
    }

    @Test
    void chargeTx123EightTimesAtOnceChargesTheCardOnceAndReplaysTheReceipt() throws Exception {
        boot("jdbc:h2:mem:pay-once;DB_CLOSE_DELAY=-1");
        List<Receipt> receipts =
                PaymentsApp.chargeConcurrently(cdi.select(PaymentService.class).get(), "TX-123", 4999, 8);
        assertEquals(1, cdi.select(CardNetwork.class).get().chargesOf("TX-123"));
        assertEquals(1, receipts.stream().filter(r -> !r.replayed()).count(), receipts.toString());
        assertEquals(
                Set.of(receipts.get(0).number()),
                receipts.stream().map(Receipt::number).collect(Collectors.toSet()),
                "every caller gets the same confirmation");
    }

    @Test
    void withoutTheLockTheSameRequestsChargeTheCardSeveralTimes() throws Exception {
        boot("jdbc:h2:mem:pay-control;DB_CLOSE_DELAY=-1"); // control run: the same flow, no lock
        ChargeFlow unlocked = new ChargeFlow(
                cdi.select(PaymentLedger.class).get(),
                cdi.select(CardNetwork.class).get());
        AtomicLong fakeFences = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Receipt>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(() -> unlocked.charge("TX-123", 4999, fakeFences.incrementAndGet()));
        }
        for (Future<Receipt> f : pool.invokeAll(calls)) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException stale) {
                // a later write with a lower fake fence is refused, but the money already moved
            }
        }
        pool.shutdown();
        int charges = cdi.select(CardNetwork.class).get().chargesOf("TX-123");
        assertTrue(charges > 1, "without a lock the double-check alone lets several requests charge: " + charges);
    }

    @Test
    void aStaleHoldersWriteIsRejectedByTheLedger() throws Exception {
        boot("jdbc:h2:mem:pay-stale;DB_CLOSE_DELAY=-1");
        String story = PaymentsApp.staleHolder(
                cdi.select(LockManager.class).get(),
                cdi.select(PaymentService.class).get(),
                cdi.select(PaymentLedger.class).get());
        assertTrue(story.contains("rejected by the ledger"), story);
        assertFalse(story.contains("CN-STALE"), story);
        assertEquals(1, cdi.select(CardNetwork.class).get().chargesOf("TX-124"));
    }

    /**
     * A holder whose token is older than the one a newer holder put on the row stops before it reads
     * the row or calls the card network; the control: the newer token charges once.
     */
    @Test
    void aStaleHolderStopsBeforeChargingWhenANewerTokenClaimedTheRow() throws Exception {
        boot("jdbc:h2:mem:pay-claim;DB_CLOSE_DELAY=-1");
        PaymentLedger ledger = cdi.select(PaymentLedger.class).get();
        CardNetwork network = cdi.select(CardNetwork.class).get();
        ChargeFlow flow = new ChargeFlow(ledger, network);
        ledger.open("TX-300", 700);
        assertTrue(ledger.claim("TX-300", 10), "the newer holder's claim");
        StaleHolderException e = assertThrows(StaleHolderException.class, () -> flow.charge("TX-300", 700, 9));
        assertTrue(e.getMessage().contains("TX-300"), e.getMessage());
        assertEquals(0, network.chargesOf("TX-300"), "the stale holder charged the card");
        Receipt fresh = flow.charge("TX-300", 700, 10);
        assertFalse(fresh.replayed());
        assertEquals(1, network.chargesOf("TX-300"));
    }

    @Test
    void theLedgerSqlRunsOnPostgresqlDialect() throws Exception {
        // no PostgreSQL server here: H2's PostgreSQL mode checks the SQL; -Dpayments.jdbc=jdbc:postgresql://... runs it
        // for real
        boot("jdbc:h2:mem:pay-pg;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        List<Receipt> receipts =
                PaymentsApp.chargeConcurrently(cdi.select(PaymentService.class).get(), "TX-200", 100, 3);
        assertEquals(1, cdi.select(CardNetwork.class).get().chargesOf("TX-200"));
        assertEquals(2, receipts.stream().filter(Receipt::replayed).count());
        assertTrue(
                Class.forName("org.postgresql.Driver") != null, "the PostgreSQL driver is on the run-time class path");
    }

    @Test
    void theAppRunsEndToEnd() throws Exception {
        String out = dev.lockwarden.examples.ExampleRun.main(PaymentsApp.class, redis.uri());
        assertTrue(out.contains("card network charged TX-123 1 time(s)"), out);
        assertTrue(out.contains("(replayed receipt: not charged again)"), out);
        assertTrue(out.contains("rejected by the ledger"), out);
    }
}
