package dev.lockwarden.spi;

import dev.lockwarden.LockOptions;
import dev.lockwarden.store.ReplicaAcks;
import java.time.Duration;

/**
 * Replica acknowledgement written as text, the same form as the setting {@code lockwarden.replica-acks}:
 * {@code replicas/timeout} ({@code 1/100ms}), or {@code off} / {@code 0}. What {@code @Locked(replicaAcks)} and an
 * agent rule's {@code replicaAcks=} parse; applied with {@link LockOptions#replicaAcks(int, Duration)}.
 *
 * @param replicas replicas that must acknowledge (0 = off for this lock, overriding the manager's default)
 * @param timeout  how long to wait for them (1 ms when off)
 */
public record ReplicaAckSpec(int replicas, Duration timeout) {
    /**
     * @param text  e.g. {@code 1/100ms} or {@code off}
     * @param where who wrote it, for the message (e.g. {@code @Locked(replicaAcks) on com.x.Billing#charge()})
     * @return the parsed value
     * @throws IllegalArgumentException naming {@code where}, the value and the form expected
     */
    public static ReplicaAckSpec parse(String text, String where) {
        ReplicaAcks acks = ReplicaAcks.parse(text, where);
        return acks.on()
                ? new ReplicaAckSpec(acks.replicas(), Duration.ofMillis(acks.timeoutMillis()))
                : new ReplicaAckSpec(0, Duration.ofMillis(1));
    }

    /**
     * @param options the lock's options (their TTL is the one checked against)
     * @return a copy that waits for these replicas (or, when off, for none whatever the manager's default)
     * @throws IllegalArgumentException the timeout is not shorter than the TTL
     */
    public LockOptions applyTo(LockOptions options) {
        return options.replicaAcks(replicas, timeout);
    }

    /** {@return {@code 1/100ms} or {@code off}} */
    @Override
    public String toString() {
        return replicas == 0 ? "off" : replicas + "/" + timeout.toMillis() + "ms";
    }
}
