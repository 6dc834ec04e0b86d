package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** holdAtLeast longer than the lock lives. */
@ApplicationScoped
public class HoldTooLong {
    @Locked(value = "cron:daily", ttl = "2s", holdAtLeast = "5s")
    public void daily() {}
}
