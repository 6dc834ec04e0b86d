package dev.lockwarden.examples.jakarta;

import jakarta.ejb.ApplicationException;

/** A charge for a payment that was never created: reaches the caller as itself, not as an EJBException. */
@ApplicationException(rollback = true)
public class UnknownPaymentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnknownPaymentException(String paymentId) {
        super("no payment " + paymentId + ": create it first (PUT /payments/" + paymentId + ")");
    }
}
