package com.acme.legacy.pay;

import com.acme.legacy.LockProbe;

/** Implements the interface in an abstract base; subclasses inherit the locked method. */
public abstract class AbstractHandler implements PaymentHandler {
    @Override
    public String handle(PaymentRequest request) {
        LockProbe.print(getClass().getSimpleName() + ".handle", "pay:AbstractHandler:" + request.id());
        return "base";
    }
}
