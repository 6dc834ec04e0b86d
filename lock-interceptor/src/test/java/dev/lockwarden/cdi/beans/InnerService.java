package dev.lockwarden.cdi.beans;

import dev.lockwarden.cdi.LockContext;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Called from inside another @Locked method. */
@ApplicationScoped
public class InnerService {
    @Inject
    LockContext lockContext;

    @Locked("line:{lineId}")
    public String innermost(String lineId) {
        return lockContext.current().name();
    }
}
