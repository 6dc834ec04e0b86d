package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** {order} renders Object.toString(): a different lock name for every call. */
@ApplicationScoped
public class NoToString {
    public static class PlainOrder {
        public String getId() {
            return "O-1";
        }
    }

    @Locked("order:{order}")
    public void ship(PlainOrder order) {}
}
