package dev.lockwarden.examples.stock;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;

/**
 * Per-product stock kept in Redis ({@code stock:<sku>}), updated by read-modify-write: read the
 * level, decide, write the new level. Under the product's lock ({@code stock:<sku>}) no reservation
 * is lost and stock never goes below zero; each product has its own lock, so products do not wait
 * for each other. {@code locks == null} is the control: the same code without the lock.
 */
public final class StockService {
    private static final LockOptions OPTIONS =
            LockOptions.ttl(Duration.ofSeconds(10)).waitUpTo(Duration.ofSeconds(20));

    private final LockManager locks;
    private final UnifiedJedis redis;

    /** @param locks the lock manager, or null to run without locking (the control) */
    public StockService(LockManager locks, UnifiedJedis redis) {
        this.locks = locks;
        this.redis = redis;
    }

    /** Sets the level of {@code sku}. */
    public void seed(String sku, long units) {
        redis.set(key(sku), Long.toString(units));
    }

    /** Current level of {@code sku}. */
    public long level(String sku) {
        String v = redis.get(key(sku));
        return v == null ? 0 : Long.parseLong(v);
    }

    /** Takes {@code units} of {@code sku} if that many are left; false if sold out. */
    public boolean reserve(String sku, long units) {
        return locks == null
                ? readModifyWrite(sku, units)
                : locks.withLock("stock:" + sku, OPTIONS, () -> readModifyWrite(sku, units));
    }

    private boolean readModifyWrite(String sku, long units) {
        long left = level(sku);
        if (left < units) {
            return false;
        }
        pricingRules(); // real code does work between the read and the write: the window for lost updates
        redis.set(key(sku), Long.toString(left - units));
        return true;
    }

    private static void pricingRules() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String key(String sku) {
        return "stock:" + sku;
    }
}
