package dev.lockwarden.examples.payments;

import java.sql.SQLException;
import java.util.Optional;

/**
 * The charge itself, to run while holding the payment's lock: the fence claim on the payment's row,
 * the idempotency double-check (charged already? return the stored receipt), the call to the card
 * network, and the fenced write.
 * Without the lock two requests both pass the check and both charge: see the test's control run.
 */
public final class ChargeFlow {
    private final PaymentLedger ledger;
    private final CardNetwork network;

    public ChargeFlow(PaymentLedger ledger, CardNetwork network) {
        this.ledger = ledger;
        this.network = network;
    }

    /**
     * @param fencingToken the token of the lock held for {@code payment:<paymentId>}
     * @throws StaleHolderException when a newer lock holder claimed or recorded the payment first
     */
    public Receipt charge(String paymentId, long cents, long fencingToken) throws SQLException {
        ledger.open(paymentId, cents);
        // the token goes on the row before the row is read: a holder with an older token (one that
        // stalled past its TTL) can then neither record a charge nor pass the check below
        if (!ledger.claim(paymentId, fencingToken)) {
            throw new StaleHolderException(paymentId, fencingToken);
        }
        Optional<Receipt> done = ledger.receiptOf(paymentId);
        if (done.isPresent()) {
            return done.get();
        }
        String confirmation = network.charge(paymentId, cents);
        if (!ledger.recordCharge(paymentId, fencingToken, confirmation)) {
            throw new StaleHolderException(paymentId, fencingToken);
        }
        return new Receipt(paymentId, cents, confirmation, fencingToken, false);
    }
}
