package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** "10 parsecs" is not a duration. */
@ApplicationScoped
public class BadTtl {
    @Locked(value = "payment:{paymentId}", ttl = "10 parsecs")
    public void charge(String paymentId) {}
}
