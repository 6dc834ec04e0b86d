package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** A TTL above LockOptions.MAX_TTL and a wait that is no duration: both are reported. */
@ApplicationScoped
public class BadWait {
    @Locked(value = "payment:{0}", ttl = "2d", waitUpTo = "soon")
    public void charge(String paymentId) {}
}
