package dev.lockwarden.examples.stock;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.DemoRedis;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import redis.clients.jedis.RedisClient;

/**
 * Stock example: many threads sell one product. Without options: seeds the stock, sells from two
 * instances with the lock (final stock exact), then once more without it (lost updates).
 * {@code --worker}: one instance that waits for {@code stock:go} and sells (used with a second JVM).
 */
@Command(
        name = "stock",
        mixinStandardHelpOptions = true,
        description = "Per-product lock around a read-modify-write of the stock level.")
public final class StockApp implements Callable<Integer> {
    @Option(names = "--sku", description = "product (default: ${DEFAULT-VALUE})")
    String sku = "SKU-42";

    @Option(names = "--threads", description = "selling threads per instance (default: ${DEFAULT-VALUE})")
    int threads = 8;

    @Option(names = "--orders", description = "one-unit orders per thread (default: ${DEFAULT-VALUE})")
    int orders = 50;

    @Option(names = "--stock", description = "initial stock (default: ${DEFAULT-VALUE})")
    long initial = 600;

    @Option(names = "--worker", description = "only sell, after the key stock:go appears (a second JVM)")
    boolean worker;

    @Option(names = "--unlocked", description = "sell without the lock (the control)")
    boolean unlocked;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StockApp()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (DemoRedis redis = DemoRedis.start();
                RedisClient data = RedisClient.create(URI.create(redis.uri()))) {
            if (worker) {
                try (LockManager locks = LockManager.builder()
                        .redis(redis.uri())
                        .application("stock-worker")
                        .build()) {
                    StockService stock = new StockService(unlocked ? null : locks, data);
                    System.out.println("ready");
                    awaitGo(data);
                    System.out.println("sold " + StockRun.sell(stock, sku, threads, orders));
                }
                return 0;
            }
            System.out.println("Stock example — Redis: " + redis.describe());
            try (LockManager a = LockManager.builder()
                            .redis(redis.uri())
                            .application("shop-a")
                            .build();
                    LockManager b = LockManager.builder()
                            .redis(redis.uri())
                            .application("shop-b")
                            .build()) {
                report("with the per-product lock", data, new StockService(a, data), new StockService(b, data));
            }
            report("without a lock (control)", data, new StockService(null, data), new StockService(null, data));
            return 0;
        }
    }

    /** Two instances sell {@code sku} at once; prints sold vs. what the stock level says. */
    private void report(String title, RedisClient data, StockService one, StockService two) throws Exception {
        one.seed(sku, initial);
        var second = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return StockRun.sell(two, sku, threads, orders);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                r -> new Thread(r, "instance-2").start());
        long sold = StockRun.sell(one, sku, threads, orders) + second.get();
        long left = one.level(sku);
        System.out.printf(
                "%s: %d orders for %d units: sold %d, stock left %d, lost updates %d%n",
                title,
                2L * threads * orders,
                initial,
                sold,
                left,
                sold + left - initial); // sold + left > initial: sales that did not decrement
    }

    private static void awaitGo(RedisClient data) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (data.get("stock:go") == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("stock:go did not appear within 60 s");
            }
            Thread.sleep(5);
        }
    }
}
