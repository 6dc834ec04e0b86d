package dev.lockwarden.examples.payments;

import dev.lockwarden.cdi.LockContext;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;

/**
 * {@code charge(paymentId)} behind {@code @Locked}: one charge per payment id across every instance.
 * A second request for the same id waits (up to 5 s) and then gets the stored receipt.
 */
@ApplicationScoped
public class PaymentService {
    private final ChargeFlow flow;
    private final LockContext lock;

    @Inject
    public PaymentService(PaymentLedger ledger, CardNetwork network, LockContext lock) {
        this.flow = new ChargeFlow(ledger, network);
        this.lock = lock;
    }

    /** For the CDI proxy only. */
    protected PaymentService() {
        this.flow = null;
        this.lock = null;
    }

    @Locked(value = "payment:{paymentId}", ttl = "30s", waitUpTo = "5s")
    public Receipt charge(String paymentId, long cents) throws SQLException {
        return flow.charge(paymentId, cents, lock.current().fencingToken());
    }
}
