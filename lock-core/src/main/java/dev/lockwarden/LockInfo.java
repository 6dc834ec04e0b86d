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
 * @param nodes        the Redis nodes holding it (one for single node, several for Redlock)
 * @param holderAlive  whether the holder JVM's heartbeat is still present
 */
public record LockInfo(String name, HolderInfo holder, LockSource source, String method, Instant acquiredAt,
                       Duration remainingTtl, long fencingToken, List<String> nodes, boolean holderAlive) {
    public LockInfo {
        nodes = List.copyOf(nodes);
    }
}
