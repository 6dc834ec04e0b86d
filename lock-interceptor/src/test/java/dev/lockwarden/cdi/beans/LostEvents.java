package dev.lockwarden.cdi.beans;

import dev.lockwarden.cdi.LockLostEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects every LockLostEvent the interceptor fires, as an application's alerting would. */
@ApplicationScoped
public class LostEvents {
    private final List<LockLostEvent> seen = new CopyOnWriteArrayList<>();

    void observe(@Observes LockLostEvent event) {
        seen.add(event);
    }

    public List<LockLostEvent> seen() {
        return List.copyOf(seen);
    }

    public void reset() {
        seen.clear();
    }
}
