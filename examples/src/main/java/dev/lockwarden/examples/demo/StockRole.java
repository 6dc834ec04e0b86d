package dev.lockwarden.examples.demo;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.stock.StockService;
import java.net.URI;
import redis.clients.jedis.RedisClient;

/** Sells SKU-42 one unit at a time under the product lock, competing with the other stock workers. */
final class StockRole implements Role {
    private static final String SKU = "SKU-42";
    private final RedisClient data;
    private final StockService stock;

    StockRole(LockManager locks, String redisUri) {
        this.data = RedisClient.create(URI.create(redisUri));
        this.stock = new StockService(locks, data);
        data.setnx("stock:" + SKU, "500");
    }

    @Override
    public void run(Console out) throws Exception {
        int sold = 0;
        while (!Thread.currentThread().isInterrupted()) {
            if (stock.reserve(SKU, 1)) {
                sold++;
            } else {
                out.say("stock: " + SKU + " sold out (this worker sold " + sold + "); restocking 500");
                data.set("stock:" + SKU, "500");
            }
            if (sold % 50 == 0 && sold > 0) {
                out.say("stock: this worker sold " + sold + " of " + SKU + ", " + stock.level(SKU) + " left");
            }
            if (!Role.pause(100)) {
                return;
            }
        }
    }

    @Override
    public void close() {
        data.close();
    }
}
