package dev.lockwarden.examples;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A toy storage layer that checks fencing tokens: a write carrying a token not above the last one
 * accepted comes from a stale holder (one that paused past its TTL) and is rejected.
 */
final class FencedAccountStore {
    private final AtomicLong lastFence = new AtomicLong();
    private volatile String balance = "100.00";

    /** Writes if {@code fence} is newer than every fence seen; false if the writer is stale. */
    synchronized boolean write(long fence, String newBalance) {
        if (fence <= lastFence.get()) {
            return false;
        }
        lastFence.set(fence);
        balance = newBalance;
        return true;
    }

    String balance() {
        return balance;
    }
}
