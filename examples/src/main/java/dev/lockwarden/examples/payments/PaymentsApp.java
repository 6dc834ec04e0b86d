package dev.lockwarden.examples.payments;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.cdi.LockedExtension;
import dev.lockwarden.examples.DemoRedis;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Payments example: "charge TX-123 twice". Boots Weld SE with {@link PaymentService}, sends the same
 * charge from two threads at once (one card charge, one replayed receipt), then lets a lock holder
 * stall past its TTL and shows the ledger rejecting its late write.
 *
 * <p>Run: {@code java -cp examples/target/lockwarden-demo.jar dev.lockwarden.examples.payments.PaymentsApp}
 * ({@code -Dlockwarden.redis=redis://...} to use your Redis, {@code -Dpayments.jdbc=jdbc:postgresql://...}
 * for PostgreSQL).
 */
public final class PaymentsApp {
    private static final PrintStream OUT = System.out;

    public static void main(String[] args) throws Exception {
        try (DemoRedis redis = DemoRedis.start();
                WeldContainer cdi = boot(redis.uri(), "payments")) {
            OUT.println("Payments example — Redis: " + redis.describe());
            PaymentService payments = cdi.select(PaymentService.class).get();
            CardNetwork network = cdi.select(CardNetwork.class).get();
            for (Receipt r : chargeConcurrently(payments, "TX-123", 4999, 2)) {
                OUT.printf(
                        "charge TX-123 -> %s fence %d%s%n",
                        r.number(), r.fence(), r.replayed() ? " (replayed receipt: not charged again)" : "");
            }
            OUT.println("card network charged TX-123 " + network.chargesOf("TX-123") + " time(s)");
            OUT.println(staleHolder(
                    cdi.select(LockManager.class).get(),
                    payments,
                    cdi.select(PaymentLedger.class).get()));
        }
    }

    /** A Weld SE container with the payment beans and {@code @Locked}, locks on {@code redisUri}. */
    public static WeldContainer boot(String redisUri, String application) {
        System.setProperty("lockwarden.redis", redisUri); // read by the default LockManager producer
        System.setProperty("lockwarden.application", application);
        return new Weld("payments-" + System.nanoTime())
                .disableDiscovery()
                .addBeanClasses(PaymentService.class, CardNetwork.class, PaymentsConfig.class)
                .addExtension(new LockedExtension())
                .initialize();
    }

    /** {@code times} threads charge {@code paymentId} at the same moment. */
    public static List<Receipt> chargeConcurrently(PaymentService payments, String paymentId, long cents, int times)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(times);
        try {
            List<Callable<Receipt>> calls = new ArrayList<>();
            for (int i = 0; i < times; i++) {
                calls.add(() -> payments.charge(paymentId, cents));
            }
            List<Receipt> receipts = new ArrayList<>();
            for (Future<Receipt> f : pool.invokeAll(calls, 30, java.util.concurrent.TimeUnit.SECONDS)) {
                receipts.add(f.get());
            }
            return receipts;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A holder takes {@code payment:TX-124} with a 300 ms TTL and no watchdog, stalls 600 ms (a GC
     * pause), and meanwhile the service charges TX-124 under a newer fence. The stale holder's write
     * then reaches the ledger and is rejected. Returns what happened, for the console.
     */
    public static String staleHolder(LockManager locks, PaymentService payments, PaymentLedger ledger)
            throws Exception {
        LockHandle stale = locks.acquire(
                "payment:TX-124", LockOptions.ttl(Duration.ofMillis(300)).autoRefresh(false));
        long oldFence = stale.fencingToken();
        ledger.open("TX-124", 1500);
        Thread.sleep(600); // the stall: the lock expires
        Receipt fresh = payments.charge("TX-124", 1500);
        boolean accepted = ledger.recordCharge("TX-124", oldFence, "CN-STALE");
        stale.release();
        return "stale holder (fence " + oldFence + ") writes TX-124 after the new holder (fence " + fresh.fence()
                + "): "
                + (accepted ? "ACCEPTED (bug!)" : "rejected by the ledger") + "; stored confirmation "
                + ledger.confirmationOf("TX-124").orElse("?");
    }

    private PaymentsApp() {}
}
