package dev.lockwarden.internal;

import dev.lockwarden.LockOptions;
import dev.lockwarden.store.ReplicaAcks;
import dev.lockwarden.store.StoreFactory;

/** Which replica acknowledgement a lock asks for: its options' if they set one, else the manager's; checked. */
final class ReplicaAckPolicy {
    private final ReplicaAcks managerDefault;
    private final StoreFactory.Topology topology;

    ReplicaAckPolicy(ReplicaAcks managerDefault, StoreFactory.Topology topology) {
        this.managerDefault = managerDefault;
        this.topology = topology;
    }

    /**
     * @throws IllegalArgumentException the topology does not support it, or its timeout is not shorter than
     *                                  the lock's TTL (the manager's default meets a lock with a short TTL)
     */
    ReplicaAcks of(String name, LockOptions options) {
        boolean own = options.replicaAcks() >= 0;
        ReplicaAcks acks = own
                ? ReplicaAcks.of(options.replicaAcks(), options.replicaAcksTimeout(), "LockOptions.replicaAcks")
                : managerDefault;
        if (!acks.on()) {
            return ReplicaAcks.OFF;
        }
        String who = (own ? "LockOptions.replicaAcks" : "the manager's replicaAcks") + " of lock '" + name + "'";
        acks.checkSupportedOn(topology, who);
        if (acks.timeoutMillis() >= options.ttl().toMillis()) {
            throw new IllegalArgumentException(who + ": timeout " + acks.timeoutMillis()
                    + " ms is not shorter than the lock's ttl " + options.ttl()
                    + ": the lock could expire while the replicas are awaited; shorten the timeout or raise the ttl");
        }
        return acks;
    }
}
