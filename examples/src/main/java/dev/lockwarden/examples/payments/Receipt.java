package dev.lockwarden.examples.payments;

/**
 * What a caller gets back from a charge.
 *
 * @param paymentId the payment charged
 * @param cents     amount
 * @param number    the card network's confirmation number
 * @param fence     fencing token of the lock under which the charge was recorded
 * @param replayed  true when the payment had been charged before and this is the stored receipt
 */
public record Receipt(String paymentId, long cents, String number, long fence, boolean replayed) {}
