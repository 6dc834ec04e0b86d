package dev.lockwarden.examples.checkout;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import java.time.Duration;

/**
 * One checkout per user at a time, across every instance: a second checkout (double click, a second
 * tab, a retry) waits up to {@code waitUpTo} for the first to finish, then proceeds; if the first is
 * still running the user gets a clear message instead of an error page or a second order.
 */
public final class CheckoutService {
    private final LockManager locks;
    private final OrderDesk desk;
    private final LockOptions options;

    public CheckoutService(LockManager locks, OrderDesk desk, Duration waitUpTo) {
        this.locks = locks;
        this.desk = desk;
        this.options = LockOptions.ttl(Duration.ofSeconds(30)).waitUpTo(waitUpTo);
    }

    /** Checks out {@code user}'s cart; placing the order takes {@code work}. */
    public CheckoutResult checkout(String user, Duration work) throws InterruptedException {
        long start = System.nanoTime();
        try (LockHandle lock = locks.acquire("checkout:" + user, options)) {
            return CheckoutResult.placed(desk.place(user, work));
        } catch (LockNotAcquiredException busy) {
            return CheckoutResult.busy((System.nanoTime() - start) / 1_000_000);
        }
    }
}
