package dev.lockwarden.inspect;

import java.util.List;
import java.util.Optional;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.RedisNodeClient;

/**
 * A lock's events ({@link LockHistory}: its own history, never crowded out by other locks, and the
 * current holder), read from the first node that answers (every client writes its events to its
 * first node).
 */
final class EventReader {
    private final List<RedisNodeClient> nodes;

    EventReader(List<RedisNodeClient> nodes) {
        this.nodes = nodes;
    }

    List<LockEvent> events(String name, Optional<LockInfo> current) {
        LockStoreException failure = null;
        for (RedisNodeClient node : nodes) {
            try {
                return LockHistory.read(node, name, current);
            } catch (LockStoreException e) {
                failure = failure == null ? e : failure;
            }
        }
        throw failure;
    }
}
