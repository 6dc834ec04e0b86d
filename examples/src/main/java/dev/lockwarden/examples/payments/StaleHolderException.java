package dev.lockwarden.examples.payments;

/** The ledger refused a write: a newer lock holder (higher fencing token) wrote the payment first. */
public final class StaleHolderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StaleHolderException(String paymentId, long fence) {
        super("payment " + paymentId + ": write with fencing token " + fence
                + " rejected, a newer lock holder recorded it first (this holder stalled past its TTL)");
    }
}
