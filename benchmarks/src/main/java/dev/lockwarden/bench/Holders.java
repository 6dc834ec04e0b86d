package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Takes (or gives back) many locks with several threads, bounded by count and time. */
final class Holders {
    /** Acquires item {@code i}; returns whatever must be kept to release it later (null if not acquired). */
    interface Take<T> {
        T take(int i) throws Exception;
    }

    private Holders() {}

    static <T> List<T> takeMany(int count, int threads, long maxMillis, Take<T> take) throws InterruptedException {
        List<T> held = new ArrayList<>(count);
        AtomicInteger next = new AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(
                    () -> {
                        List<T> mine = new ArrayList<>();
                        int i;
                        while ((i = next.getAndIncrement()) < count && System.nanoTime() - deadline < 0) {
                            try {
                                T h = take.take(i);
                                if (h != null) {
                                    mine.add(h);
                                }
                            } catch (Exception e) {
                                Bench.progress("taking lock " + i + " failed: " + e);
                                return;
                            }
                        }
                        synchronized (held) {
                            held.addAll(mine);
                        }
                    },
                    "bench-take-" + t);
            th.setDaemon(true);
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join(Math.max(1, maxMillis + 10_000));
        }
        synchronized (held) {
            return new ArrayList<>(held);
        }
    }

    /** Runs {@code action} over every item with several threads, bounded by time. */
    static <T> void forEach(List<T> items, int threads, long maxMillis, java.util.function.Consumer<T> action)
            throws InterruptedException {
        takeMany(items.size(), threads, maxMillis, i -> {
            try {
                action.accept(items.get(i));
            } catch (RuntimeException ignored) {
                // best effort (clean-up)
            }
            return null;
        });
    }
}
