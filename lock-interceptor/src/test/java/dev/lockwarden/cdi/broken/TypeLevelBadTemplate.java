package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** A type-level template is checked against every business method: refund() has no {0}. */
@ApplicationScoped
@Locked("account:{0}")
public class TypeLevelBadTemplate {
    public void debit(String account) {}

    public void refund() {}
}
