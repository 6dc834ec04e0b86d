package dev.lockwarden.internal;

import dev.lockwarden.LockHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-thread reentrancy (virtual threads included): the outermost handle held for each name, and the
 * thread that took it. Keyed by name alone (one live handle per name and manager: the lock admits one
 * holder), so a lookup allocates nothing; the owner check makes it per thread, and a handle released
 * from another thread still clears its entry.
 */
final class Reentrancy {
    private final Map<String, DefaultLockHandle> held = new ConcurrentHashMap<>();

    /** A nested handle if the current thread already holds {@code name}, else null. */
    LockHandle nested(String name) {
        DefaultLockHandle outer = held.get(name);
        if (outer == null || outer.owner() != Thread.currentThread()) {
            return null;
        }
        if (!outer.isHeld()) {
            held.remove(name, outer);
            return null;
        }
        return new NestedLockHandle(outer);
    }

    void register(DefaultLockHandle h) {
        held.put(h.name(), h);
    }

    void forget(DefaultLockHandle h) {
        held.remove(h.name(), h);
    }
}
