package dev.lockwarden.examples.jakarta;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the card processor: slow (200 ms) and outside the transaction, so a charge made here is never
 * rolled back. It counts charges per payment: more than one is a double charge.
 */
@ApplicationScoped
public class CardNetwork {
    private static final long LATENCY_MILLIS = 200;
    private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();

    /** Charges the card for {@code paymentId}; returns the network's confirmation. */
    public String charge(String paymentId) {
        try {
            Thread.sleep(LATENCY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while charging " + paymentId, e);
        }
        charges.computeIfAbsent(paymentId, id -> new AtomicInteger()).incrementAndGet();
        return "CN-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** How many times {@code paymentId} was charged. */
    public int charges(String paymentId) {
        AtomicInteger n = charges.get(paymentId);
        return n == null ? 0 : n.get();
    }
}
