package dev.lockwarden.inspect;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.store.RedisDeployment;
import java.util.List;
import java.util.Optional;

/**
 * A lock's events ({@link LockHistory}: its own history, never crowded out by other locks, and the
 * current holder), read from the first node that answers (every client writes its events to its
 * first node).
 */
final class EventReader {
    private final RedisDeployment redis;

    EventReader(RedisDeployment redis) {
        this.redis = redis;
    }

    List<LockEvent> events(String name, Optional<LockInfo> current) {
        return redis.firstAnswering(node -> LockHistory.read(node, name, current));
    }
}
