package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.Dependent;

/** Static methods are never intercepted. */
@Dependent
public class StaticLocked {
    @Locked("work")
    public static void work() {}
}
