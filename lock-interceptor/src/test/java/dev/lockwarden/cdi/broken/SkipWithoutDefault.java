package dev.lockwarden.cdi.broken;

import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** SKIP on a method whose String result has no "skipped" value. */
@ApplicationScoped
public class SkipWithoutDefault {
    @Locked(value = "receipt:{0}", onBusy = OnBusy.SKIP)
    public String receipt(String id) {
        return id;
    }
}
