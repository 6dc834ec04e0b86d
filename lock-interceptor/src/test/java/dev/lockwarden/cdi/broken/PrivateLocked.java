package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** Private methods are never intercepted. */
@ApplicationScoped
public class PrivateLocked {
    public void run() {
        work();
    }

    @Locked("work")
    private void work() {}
}
