package dev.lockwarden.admin.security;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * At most {@value #CONCURRENT} password checks at once. Each is a deliberately slow PBKDF2
 * (hundreds of milliseconds of CPU); unbounded, a few clients sending logins would take every core
 * from the dashboard and the pages would stop answering. A check that cannot start within
 * {@link #WAIT} is not run at all.
 */
final class PasswordCheckGate {
    static final int CONCURRENT = 2;
    static final Duration WAIT = Duration.ofSeconds(1);

    private final Semaphore permits = new Semaphore(CONCURRENT, true);
    private final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger peak = new java.util.concurrent.atomic.AtomicInteger();

    /** The check's result, or empty when the gate stayed full for {@link #WAIT}. */
    <T> java.util.Optional<T> run(Supplier<T> check) {
        try {
            if (!permits.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return java.util.Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            return java.util.Optional.of(check.get());
        } finally {
            running.decrementAndGet();
            permits.release();
        }
    }

    /** The most checks that ever ran at once. */
    int peak() {
        return peak.get();
    }
}
