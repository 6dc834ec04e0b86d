package dev.lockwarden.internal;

/**
 * The time source of handles and the watchdog: monotonic nanoseconds, {@link System#nanoTime()}
 * by default. Not a {@code java.time.Clock}: lock validity must not jump when the wall clock is
 * stepped (NTP), and every deadline here is a nanoTime. Tests inject one that they advance, so a
 * TTL can pass without sleeping; such a ticker must never run behind {@code System.nanoTime()}
 * (the engine stamps acquisitions with it).
 */
@FunctionalInterface
public interface Ticker {
    /** The JVM's monotonic clock. */
    Ticker SYSTEM = System::nanoTime;

    /** Now, in nanoseconds of an arbitrary origin. */
    long nanos();
}
