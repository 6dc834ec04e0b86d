package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LocalPoolBusyException;
import dev.lockwarden.LockStoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Waiting for a local connection uses the caller's budget (at least the timeout) and is never a store error. */
class ConnectionGateTest {
    @Test
    void waitsUpToTheCallersBudgetThenSaysThePoolIsBusyNotRedis() {
        ConnectionGate gate = new ConnectionGate(1, 100, "127.0.0.1:1");
        gate.enter(0, "first");
        long t0 = System.nanoTime();
        LocalPoolBusyException e = assertThrows(
                LocalPoolBusyException.class,
                () -> gate.enter(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400), "acquire 'x'"));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(waited >= 380 && waited < 2_000, "waited " + waited + " ms for a 400 ms budget");
        assertFalse(LockStoreException.class.isInstance(e));
        assertTrue(e.getMessage().contains("maxConnections") && e.getMessage().contains("acquire 'x'"), e.getMessage());
        // no budget of its own: the minimum wait (the Redis timeout) applies
        t0 = System.nanoTime();
        assertThrows(LocalPoolBusyException.class, () -> gate.enter(0, "release"));
        waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(waited >= 90, "waited only " + waited + " ms");
        gate.exit();
    }

    @Test
    void aConnectionFreedWithinTheBudgetIsTaken() throws Exception {
        ConnectionGate gate = new ConnectionGate(1, 50, "127.0.0.1:1");
        gate.enter(0, "first");
        CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gate.exit();
        });
        gate.enter(System.nanoTime() + TimeUnit.SECONDS.toNanos(5), "second"); // far longer than the 50 ms minimum
        later.get(5, TimeUnit.SECONDS);
        gate.exit();
    }
}
