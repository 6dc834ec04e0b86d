package dev.lockwarden.examples.demo;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.checkout.CheckoutResult;
import dev.lockwarden.examples.checkout.CheckoutService;
import dev.lockwarden.examples.checkout.OrderDesk;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Two shoppers double-click "Pay": the second click waits up to 1 s for the first. */
final class CheckoutRole implements Role {
    private final CheckoutService checkout;

    CheckoutRole(LockManager locks) {
        this.checkout = new CheckoutService(locks, new OrderDesk(), Duration.ofSeconds(1));
    }

    @Override
    public void run(Console out) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!Thread.currentThread().isInterrupted()) {
            String user = random.nextBoolean() ? "alice" : "bob";
            Duration work = Duration.ofMillis(200 + random.nextInt(1600)); // sometimes longer than the 1 s wait
            Thread first = new Thread(() -> report(out, user, 1, work), "checkout-click-1");
            first.start();
            Role.pause(50);
            report(out, user, 2, work);
            first.join(5000);
            if (!Role.pause(2000 + random.nextInt(2000))) {
                return;
            }
        }
    }

    private void report(Console out, String user, int click, Duration work) {
        try {
            CheckoutResult r = checkout.checkout(user, work);
            out.say("checkout: " + user + " click " + click + " -> " + r.message());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
