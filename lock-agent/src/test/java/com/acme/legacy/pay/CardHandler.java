package com.acme.legacy.pay;

import com.acme.legacy.LockProbe;

/** Implements the interface directly. */
public class CardHandler implements PaymentHandler {
    @Override
    public String handle(PaymentRequest request) {
        LockProbe.print("CardHandler.handle", "pay:CardHandler:" + request.id());
        return "card";
    }
}
