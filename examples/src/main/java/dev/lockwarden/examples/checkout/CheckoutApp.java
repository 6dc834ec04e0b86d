package dev.lockwarden.examples.checkout;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.DemoRedis;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Checkout example: a shopper double-clicks "Pay" (the second checkout waits and goes through after
 * the first), then the back end is slow (the second gives up after 1 s with a message).
 */
public final class CheckoutApp {
    private static final PrintStream OUT = System.out;

    public static void main(String[] args) throws Exception {
        try (DemoRedis redis = DemoRedis.start();
                LockManager locks = LockManager.builder()
                        .redis(redis.uri())
                        .application("checkout")
                        .build()) {
            OUT.println("Checkout example — Redis: " + redis.describe());
            OrderDesk desk = new OrderDesk();
            CheckoutService checkout = new CheckoutService(locks, desk, Duration.ofSeconds(1));
            OUT.println("alice double-clicks Pay; placing an order takes 300 ms:");
            both(checkout, "alice", Duration.ofMillis(300));
            OUT.println("bob double-clicks Pay; the back end is slow, placing an order takes 3 s:");
            both(checkout, "bob", Duration.ofSeconds(3));
            OUT.println("most checkouts at once: alice " + desk.maxConcurrent("alice") + ", bob "
                    + desk.maxConcurrent("bob"));
        }
    }

    private static void both(CheckoutService checkout, String user, Duration work) throws Exception {
        CompletableFuture<CheckoutResult> first = new CompletableFuture<>();
        Thread click1 = new Thread(() -> first.complete(run(checkout, user, work)), user + "-click-1");
        click1.start();
        Thread.sleep(50); // the second click
        CheckoutResult second = run(checkout, user, work);
        OUT.println("  click 1: " + first.get().message());
        OUT.println("  click 2: " + second.message());
    }

    private static CheckoutResult run(CheckoutService checkout, String user, Duration work) {
        try {
            return checkout.checkout(user, work);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private CheckoutApp() {}
}
