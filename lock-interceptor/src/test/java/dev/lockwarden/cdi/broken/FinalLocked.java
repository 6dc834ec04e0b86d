package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.Dependent;

/** Final methods cannot be intercepted. */
@Dependent
public class FinalLocked {
    @Locked("work")
    public final void work() {}
}
