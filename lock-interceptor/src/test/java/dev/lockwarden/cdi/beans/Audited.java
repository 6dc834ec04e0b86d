package dev.lockwarden.cdi.beans;

import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A class-level @Locked: business methods are locked, callbacks, initializers and Object methods are not. */
@ApplicationScoped
@Locked("audit")
public class Audited {
    private volatile String atPostConstruct;
    private volatile String atInitializer;

    @PostConstruct
    public void started() {
        atPostConstruct = currentName();
    }

    @Inject
    public void init(Probe probe) {
        atInitializer = currentName();
    }

    public String business() {
        return currentName();
    }

    public String seenAtPostConstruct() {
        return atPostConstruct;
    }

    public String seenAtInitializer() {
        return atInitializer;
    }

    @Override
    public String toString() {
        return "Audited[" + currentName() + "]";
    }

    private static String currentName() {
        try {
            return Locks.current().name();
        } catch (IllegalStateException none) {
            return "unlocked";
        }
    }
}
