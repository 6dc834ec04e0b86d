package dev.lockwarden.cdi.broken;

import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** Everything here is valid: SKIP on a primitive return, ISO durations, property paths, indexes. */
@ApplicationScoped
public class ValidBean {
    public record Account(String id) {}

    @Locked(value = "slot:{0}", onBusy = OnBusy.SKIP)
    public int count(String slot) {
        return 1;
    }

    @Locked(value = "account:{account.id}:{cents}", ttl = "PT10S", waitUpTo = "250ms")
    public void debit(Account account, long cents) {}

    private void notLocked() {}
}
