package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.RedissonMultiLock;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** Redisson's multi-node locks over independent nodes: {@code RedissonRedLock} (majority) or {@code RedissonMultiLock} (all). */
final class RedissonMultiContender implements Contender {
    private final List<Integer> ports;
    private final boolean redlock;
    private final List<RedissonClient> clients = new ArrayList<>();

    RedissonMultiContender(List<Integer> ports, boolean redlock) {
        this.ports = List.copyOf(ports);
        this.redlock = redlock;
    }

    @Override
    public String name() {
        return "Redisson " + (redlock ? "RedissonRedLock" : "RedissonMultiLock") + " (" + ports.size() + " nodes)";
    }

    @Override
    public void setUp() {
        for (int p : ports) {
            clients.add(RedissonContender.client(p, 30_000));
        }
    }

    private RedissonMultiLock lock(String key) {
        RLock[] locks = new RLock[clients.size()];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = clients.get(i).getLock(key);
        }
        return redlock ? new RedissonRedLock(locks) : new RedissonMultiLock(locks);
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        RedissonMultiLock lock = lock(key);
        return Contender.underLock(lock, lock.tryLock(), body);
    }

    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws InterruptedException {
        RedissonMultiLock lock = lock(key);
        return Contender.underLock(lock, lock.tryLock(maxWaitMillis, TimeUnit.MILLISECONDS), body);
    }

    @Override
    public String waitStyle() {
        return "retry loop";
    }

    @Override
    public void tearDown() {
        clients.forEach(RedissonClient::shutdown);
    }
}
