package com.acme.legacy;

/** Used by the start-up check tests: a method taking a {@link Payment}. */
public class Billing {
    public String settle(Payment payment) {
        return "settled " + payment.getId();
    }
}
