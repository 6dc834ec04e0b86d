package dev.lockwarden.examples.checkout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stand-in for the order back end: placing an order takes {@code work}; it records, per user, how
 * many checkouts ran at the same time (the thing the lock must keep at 1).
 */
public final class OrderDesk {
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> maxInFlight = new ConcurrentHashMap<>();
    private final AtomicInteger orders = new AtomicInteger();

    /** Places an order for {@code user}, taking {@code work}. */
    public String place(String user, Duration work) throws InterruptedException {
        AtomicInteger now = inFlight.computeIfAbsent(user, u -> new AtomicInteger());
        int running = now.incrementAndGet();
        maxInFlight.computeIfAbsent(user, u -> new AtomicInteger()).accumulateAndGet(running, Math::max);
        try {
            Thread.sleep(work.toMillis());
            return "ORD-" + orders.incrementAndGet();
        } finally {
            now.decrementAndGet();
        }
    }

    /** Most checkouts of {@code user} seen running at once. */
    public int maxConcurrent(String user) {
        AtomicInteger m = maxInFlight.get(user);
        return m == null ? 0 : m.get();
    }
}
