package dev.lockwarden.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockwarden.LockHandle;

/**
 * Per-thread reentrancy (virtual threads included): the outermost handle a thread holds for each
 * name. Keyed by thread identity, so a handle released from another thread still clears its entry.
 */
final class Reentrancy {
    private record Key(Thread thread, String name) {
    }

    private final Map<Key, DefaultLockHandle> held = new ConcurrentHashMap<>();

    /** A nested handle if the current thread already holds {@code name}, else null. */
    LockHandle nested(String name) {
        Key key = new Key(Thread.currentThread(), name);
        DefaultLockHandle outer = held.get(key);
        if (outer == null) {
            return null;
        }
        if (!outer.isHeld()) {
            held.remove(key, outer);
            return null;
        }
        return new NestedLockHandle(outer);
    }

    void register(DefaultLockHandle h) {
        held.put(new Key(h.owner(), h.name()), h);
    }

    void forget(DefaultLockHandle h) {
        held.remove(new Key(h.owner(), h.name()), h);
    }
}
