package com.acme.legacy.pay;

/** Matched with {@code com.acme.legacy.pay.PaymentHandler+#handle(..)}: every implementation is locked. */
public interface PaymentHandler {
    String handle(PaymentRequest request);
}
