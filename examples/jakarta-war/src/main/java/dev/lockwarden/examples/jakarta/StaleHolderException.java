package dev.lockwarden.examples.jakarta;

import jakarta.ejb.ApplicationException;

/** The database refused a write fenced with an older token: the transaction rolls back. */
@ApplicationException(rollback = true)
public class StaleHolderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StaleHolderException(String paymentId, long fence) {
        super("payment " + paymentId + ": a newer lock holder already wrote; fence " + fence + " rejected");
    }
}
