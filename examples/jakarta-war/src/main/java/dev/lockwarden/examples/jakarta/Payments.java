package dev.lockwarden.examples.jakarta;

import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * "Charge TX-123 twice", in a Jakarta EE server: a {@code @Stateless} EJB (container-managed transaction) whose
 * {@code charge} runs behind {@code @Locked}. Under the lock: the idempotency double-check (charged already? the
 * stored receipt), the card charge, and the write fenced by the lock's token. The lock is released after the
 * transaction commits, so the next caller always reads the committed CHARGED.
 */
@Stateless
public class Payments {
    @Inject
    Ledger ledger;

    @Inject
    CardNetwork card;

    /** Charges payment {@code paymentId} once, however many requests for it arrive at once, on however many servers. */
    @Locked(value = "payment:{paymentId}", ttl = "30s", waitUpTo = "20s")
    public Receipt charge(String paymentId) throws SQLException {
        return chargeFlow(paymentId, OptionalLong.of(Locks.current().fencingToken()));
    }

    /** The control: the same flow without the lock (and so without a fence). Concurrent calls charge twice. */
    public Receipt chargeUnlocked(String paymentId) throws SQLException {
        return chargeFlow(paymentId, OptionalLong.empty());
    }

    private Receipt chargeFlow(String paymentId, OptionalLong fence) throws SQLException {
        Ledger.Entry entry = ledger.find(paymentId).orElseThrow(() -> new UnknownPaymentException(paymentId));
        if (entry.charged()) {
            return new Receipt(paymentId, entry.confirmation(), true);
        }
        String confirmation = card.charge(paymentId);
        if (!ledger.markCharged(paymentId, confirmation, fence)) {
            // a newer lock holder wrote first: this one stalled past its TTL; roll back, keep the newer write
            throw new StaleHolderException(paymentId, fence.getAsLong());
        }
        return new Receipt(paymentId, confirmation, false);
    }
}
