package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** {order.idd}: a typo in the property path. */
@ApplicationScoped
public class MissingProperty {
    public record Order(String id) {}

    @Locked("order:{order.idd}")
    public void ship(Order order) {}
}
