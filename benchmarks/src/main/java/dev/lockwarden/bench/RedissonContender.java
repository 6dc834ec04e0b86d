package dev.lockwarden.bench;

import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson {@code RLock} with its watchdog (no lease time given), default client settings. */
final class RedissonContender implements Contender {
    private final int port;
    private final long watchdogMillis;
    private RedissonClient client;

    RedissonContender(int port) {
        this(port, 30_000);
    }

    RedissonContender(int port, long watchdogMillis) {
        this.port = port;
        this.watchdogMillis = watchdogMillis;
    }

    @Override
    public String name() {
        return "Redisson RLock";
    }

    @Override
    public void setUp() {
        client = client(port, watchdogMillis);
    }

    static RedissonClient client(int port, long watchdogMillis) {
        Config c = new Config();
        c.setLockWatchdogTimeout(watchdogMillis);
        c.useSingleServer()
                .setAddress("redis://127.0.0.1:" + port)
                .setConnectionPoolSize(Pools.SIZE)
                .setConnectionMinimumIdleSize(Math.min(24, Pools.SIZE));
        if (Pools.REDISSON_NETTY_THREADS > 0) {
            c.setNettyThreads(Pools.REDISSON_NETTY_THREADS);
        }
        return Redisson.create(c);
    }

    RedissonClient client() {
        return client;
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        RLock lock = client.getLock(key);
        return Contender.underLock(lock, lock.tryLock(), body);
    }

    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws InterruptedException {
        RLock lock = client.getLock(key);
        return Contender.underLock(lock, lock.tryLock(maxWaitMillis, TimeUnit.MILLISECONDS), body);
    }

    @Override
    public String waitStyle() {
        return "pub/sub wake-up (semaphore)";
    }

    @Override
    public void tearDown() {
        if (client != null) {
            client.shutdown();
        }
    }
}
