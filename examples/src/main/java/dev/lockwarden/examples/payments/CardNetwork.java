package dev.lockwarden.examples.payments;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stand-in for the payment provider: every call moves money, so it counts them per payment. A call
 * takes {@code latencyMillis} (real providers take 100s of ms), the window in which an unguarded
 * second request passes the "already charged?" check too.
 */
@ApplicationScoped
public class CardNetwork {
    private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
    private final AtomicInteger confirmations = new AtomicInteger();
    private volatile long latencyMillis = 50;

    /** Charges the card and returns a confirmation number. */
    public String charge(String paymentId, long cents) {
        try {
            Thread.sleep(latencyMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while charging " + paymentId, e);
        }
        charges.computeIfAbsent(paymentId, k -> new AtomicInteger()).incrementAndGet();
        // the process id keeps confirmations of several instances (the demo's workers) distinct
        return "CN-" + ProcessHandle.current().pid() + "-" + confirmations.incrementAndGet();
    }

    /** How many times {@code paymentId} was charged. */
    public int chargesOf(String paymentId) {
        AtomicInteger n = charges.get(paymentId);
        return n == null ? 0 : n.get();
    }

    /** Sets the simulated provider latency. */
    public void latencyMillis(long millis) {
        this.latencyMillis = millis;
    }
}
