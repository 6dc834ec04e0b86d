package dev.lockwarden.agent;

import java.time.Duration;

/**
 * Counts locked calls in flight so JVM shutdown can wait for them: after {@link #close} no call begins, and
 * {@link #await} returns when the last running one ended or the timeout passed.
 */
final class Drain {
    private int running;
    private boolean closed;

    /** False once shutdown began: the call must not start. */
    synchronized boolean begin() {
        if (closed) {
            return false;
        }
        running++;
        return true;
    }

    synchronized void end() {
        running--;
        if (running == 0) {
            notifyAll();
        }
    }

    synchronized int running() {
        return running;
    }

    /** Refuses new calls; returns how many are still running. */
    synchronized int close() {
        closed = true;
        return running;
    }

    /** Waits until no call runs or {@code timeout} passed; returns how many still run. */
    synchronized int await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (running > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return running;
    }
}
