package dev.lockwarden.cdi.beans;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts how many bodies run at once and in total. */
@ApplicationScoped
public class Probe {
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger maxActive = new AtomicInteger();
    private final AtomicInteger runs = new AtomicInteger();

    public void run(long pauseMillis) {
        int now = active.incrementAndGet();
        maxActive.accumulateAndGet(now, Math::max);
        runs.incrementAndGet();
        try {
            Thread.sleep(pauseMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            active.decrementAndGet();
        }
    }

    public void reset() {
        active.set(0);
        maxActive.set(0);
        runs.set(0);
    }

    public int maxActive() {
        return maxActive.get();
    }

    public int runs() {
        return runs.get();
    }
}
