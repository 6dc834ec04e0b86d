package dev.lockwarden.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.jedis4.JedisLockProvider;
import redis.clients.jedis.RedisClient;

/** ShedLock's Jedis provider: {@code SET NX PX} to lock, plain {@code DEL} to unlock (no owner check). */
final class ShedLockContender implements Contender {
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    private final int port;
    private RedisClient redis;
    private JedisLockProvider provider;

    ShedLockContender(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return "ShedLock (Jedis provider)";
    }

    @Override
    public void setUp() {
        redis = Pools.jedis(port);
        provider = new JedisLockProvider(redis, "bench");
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        Optional<SimpleLock> lock = provider.lock(new LockConfiguration(Instant.now(), key, AT_MOST, Duration.ZERO));
        if (lock.isEmpty()) {
            return false;
        }
        try {
            body.run();
        } finally {
            lock.get().unlock();
        }
        return true;
    }

    /** ShedLock has no waiting acquire: tight polling. */
    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws Exception {
        return pollingCycle(key, maxWaitMillis, body);
    }

    @Override
    public String waitStyle() {
        return "tight polling (no waiting API)";
    }

    @Override
    public Set<String> plainCommands() {
        return Set.of("set", "del");
    }

    @Override
    public void tearDown() {
        if (redis != null) {
            redis.close();
        }
    }
}
