package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** {nope} names no parameter. */
@ApplicationScoped
public class BadTemplate {
    @Locked("payment:{nope}")
    public void charge(String paymentId) {}
}
