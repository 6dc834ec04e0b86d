package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/** "1 replica" has no timeout; a timeout as long as the TTL could outlive the lock. */
@ApplicationScoped
public class BadReplicaAcks {
    @Locked(value = "payment:{0}", replicaAcks = "1 replica")
    public void charge(String paymentId) {}

    @Locked(value = "report", ttl = "2s", replicaAcks = "1/2s")
    public void report() {}

    @Locked(value = "audit", replicaAcks = "off")
    public void audit() {}
}
