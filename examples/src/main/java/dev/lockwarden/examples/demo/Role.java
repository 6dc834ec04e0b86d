package dev.lockwarden.examples.demo;

/** One activity of a demo worker JVM, run on its own thread until the worker stops. */
interface Role extends AutoCloseable {
    /** Runs until interrupted; prints what it does through {@code out}. */
    void run(Console out) throws Exception;

    @Override
    default void close() {}

    /** Where a role reports, one line at a time. */
    @FunctionalInterface
    interface Console {
        void say(String line);
    }

    /** Sleeps, returning false when interrupted (the worker is stopping). */
    static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
