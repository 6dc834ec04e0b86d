package dev.lockwarden.store;

/**
 * A lock this JVM holds, as the store needs it for refresh and release.
 *
 * @param name      lock name
 * @param token     the owner's random token
 * @param ttlMillis TTL to set on refresh
 * @param acks      the replicas that must acknowledge its acquire and refreshes ({@link ReplicaAcks#OFF}: none)
 */
public record Lease(String name, String token, long ttlMillis, ReplicaAcks acks) {
    /** A lease without replica acknowledgement. */
    public Lease(String name, String token, long ttlMillis) {
        this(name, token, ttlMillis, ReplicaAcks.OFF);
    }

    /** {@return this lease with another TTL (an explicit extend)} */
    public Lease withTtl(long millis) {
        return new Lease(name, token, millis, acks);
    }
}
