package dev.lockwarden;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A held lock as an operator sees it (read through {@link LockInspector}).
 *
 * @param name         lock name
 * @param holder       who holds it (fields may be empty if the info hash is missing)
 * @param source       the entry point that took it
 * @param method       the locked method ({@code Class#method}) for CDI/agent locks, else empty
 * @param acquiredAt   when Redis granted it
 * @param remainingTtl time left before it expires unless refreshed
 * @param fencingToken the holder's fencing token
 * @param nodes        the Redis nodes holding it (one for single node, several for Redlock, the master owning the lock's slot for Cluster; passwords masked)
 * @param holderAlive  whether the holder JVM's heartbeat is still present
 * @param tokenId      SHA-1 (hex) of the holder's token: names this very acquisition without revealing
 *                     the token, so {@link LockInspector#forceRelease(LockInfo, String)} can check the
 *                     lock has not changed hands ("" if unknown)
 */
public record LockInfo(
        String name,
        HolderInfo holder,
        LockSource source,
        String method,
        Instant acquiredAt,
        Duration remainingTtl,
        long fencingToken,
        List<String> nodes,
        boolean holderAlive,
        String tokenId) {
    /**
     * Copies the node list; a null token id becomes "".
     *
     * @param name         lock name
     * @param holder       who holds it (fields may be empty if the info hash is missing)
     * @param source       the entry point that took it
     * @param method       the locked method ({@code Class#method}) for CDI/agent locks, else empty
     * @param acquiredAt   when Redis granted it
     * @param remainingTtl time left before it expires unless refreshed
     * @param fencingToken the holder's fencing token
     * @param nodes        the Redis nodes holding it (one for single node, several for Redlock, the master owning the lock's slot for Cluster; passwords masked)
     * @param holderAlive  whether the holder JVM's heartbeat is still present
     * @param tokenId      SHA-1 (hex) of the holder's token: names this very acquisition without revealing
     *                     the token, so {@link LockInspector#forceRelease(LockInfo, String)} can check the
     *                     lock has not changed hands ("" if unknown)
     */
    public LockInfo {
        nodes = List.copyOf(nodes);
        tokenId = tokenId == null ? "" : tokenId;
    }

    /**
     * A lock whose token id is unknown.
     *
     * @param name         lock name
     * @param holder       who holds it
     * @param source       the entry point that took it
     * @param method       the locked method, or empty
     * @param acquiredAt   when Redis granted it
     * @param remainingTtl time left before it expires unless refreshed
     * @param fencingToken the holder's fencing token
     * @param nodes        the Redis nodes holding it
     * @param holderAlive  whether the holder JVM's heartbeat is still present
     */
    public LockInfo(
            String name,
            HolderInfo holder,
            LockSource source,
            String method,
            Instant acquiredAt,
            Duration remainingTtl,
            long fencingToken,
            List<String> nodes,
            boolean holderAlive) {
        this(name, holder, source, method, acquiredAt, remainingTtl, fencingToken, nodes, holderAlive, "");
    }
}
