package dev.lockwarden.examples.stock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** {@code threads} threads each try {@code orders} one-unit reservations of one product; counts the successes. */
final class StockRun {
    private StockRun() {}

    static long sell(StockService stock, String sku, int threads, int orders) throws Exception {
        AtomicLong sold = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < orders; i++) {
                        if (stock.reserve(sku, 1)) {
                            sold.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            return sold.get();
        } finally {
            pool.shutdownNow();
        }
    }
}
