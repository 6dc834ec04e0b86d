package dev.lockwarden.examples.stock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.examples.ExampleRun;
import dev.lockwarden.testing.RedisServerExtension;
import java.net.URI;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/** Many threads and two JVMs sell one product against a real redis-server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StockTest {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    private RedisClient data;
    private LockManager locks;

    @BeforeEach
    void connect() {
        redis.flushAll();
        data = RedisClient.create(URI.create(redis.uri()));
        locks = LockManager.builder()
                .redis(redis.uri())
                .application("stock-test")
                .build();
    }

    @AfterEach
    void close() {
        locks.close();
        data.close();
    }

    @Test
    void twoJvmsSellExactlyTheStockAndNeverBelowZero() throws Exception {
        StockService stock = new StockService(locks, data);
        stock.seed("SKU-1", 600);
        ExampleRun.Child other = ExampleRun.start(
                StockApp.class, redis.uri(), "--worker", "--sku", "SKU-1", "--threads", "8", "--orders", "50");
        awaitLine(other, "ready");
        data.set("stock:go", "1");
        long soldHere = StockRun.sell(stock, "SKU-1", 8, 50);
        String out = other.finish();
        long soldThere = Long.parseLong(out.lines()
                .filter(l -> l.startsWith("sold "))
                .findFirst()
                .orElseThrow()
                .substring(5));
        assertTrue(soldThere > 0 && soldHere > 0, "both JVMs sold: " + soldHere + " / " + soldThere);
        assertEquals(600, soldHere + soldThere, "800 orders for 600 units: exactly 600 sold");
        assertEquals(0, stock.level("SKU-1"));
    }

    @Test
    void productsHaveTheirOwnLocksAndEachEndsExact() throws Exception {
        StockService stock = new StockService(locks, data);
        stock.seed("SKU-A", 1000);
        stock.seed("SKU-B", 1000);
        var b = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> sell(stock, "SKU-B"), r -> new Thread(r).start());
        long soldA = sell(stock, "SKU-A");
        assertEquals(200, soldA);
        assertEquals(200, b.get());
        assertEquals(800, stock.level("SKU-A"));
        assertEquals(800, stock.level("SKU-B"));
    }

    @Test
    void controlWithoutTheLockLosesUpdates() throws Exception {
        StockService unlocked = new StockService(null, data);
        unlocked.seed("SKU-X", 1000);
        long sold = sell(unlocked, "SKU-X");
        long left = unlocked.level("SKU-X");
        assertEquals(200, sold, "every order 'succeeds'");
        assertTrue(left > 1000 - sold, "lost updates: sold " + sold + " but stock only fell to " + left);
    }

    @Test
    void theAppShowsExactStockWithTheLockAndLostUpdatesWithout() throws Exception {
        String out =
                ExampleRun.main(StockApp.class, redis.uri(), "--threads", "4", "--orders", "100", "--stock", "600");
        assertTrue(
                out.contains(
                        "with the per-product lock: 800 orders for 600 units: sold 600, stock left 0, lost updates 0"),
                out);
        assertTrue(
                out.matches(
                        "(?s).*without a lock \\(control\\): 800 orders for 600 units: sold \\d+, stock left \\d+, lost updates [1-9]\\d*.*"),
                out);
    }

    private static long sell(StockService stock, String sku) {
        try {
            return StockRun.sell(stock, sku, 4, 50);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitLine(ExampleRun.Child child, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(child.output().toPath()).lines().anyMatch(line::equals)) {
            assertTrue(
                    child.process().isAlive(), Files.readString(child.output().toPath()));
            assertTrue(
                    System.nanoTime() < deadline,
                    "no '" + line + "' within 30 s: "
                            + Files.readString(child.output().toPath()));
            Thread.sleep(20);
        }
    }
}
