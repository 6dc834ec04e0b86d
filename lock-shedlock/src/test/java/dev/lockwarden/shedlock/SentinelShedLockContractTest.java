package dev.lockwarden.shedlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisSentinelGroup;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ShedLock provider contract on Redis Sentinel: a master, two replicas and three sentinels, one
 * group for the class; the managers (and the fuzz test's child JVMs, through {@code lockwarden.sentinel})
 * find the master through the sentinels. Backs lock-shedlock/README.md's "single node, Redlock, Cluster or
 * Sentinel" and its compatibility table's "Redis Sentinel".
 */
class SentinelShedLockContractTest extends AbstractShedLockContractTest {
    private static RedisSentinelGroup group;

    @BeforeAll
    static void startGroup() {
        group = new RedisSentinelGroup(false).start();
    }

    @AfterAll
    static void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    @Override
    RedisServerExtension servers() {
        throw new UnsupportedOperationException("a Sentinel group, not a RedisServerExtension");
    }

    @Override
    void flushAll() {
        group.master().command("FLUSHALL"); // the replicas follow
    }

    @Override
    Map<String, String> settings() {
        return Map.of(
                "lockwarden.sentinel", RedisSentinelGroup.MASTER_NAME + "@" + String.join(",", group.sentinelUris()));
    }

    @Test
    void locksLiveOnTheMasterTheSentinelsName() {
        String redis = locks.describeRedis();
        assertTrue(redis.startsWith("sentinel[" + RedisSentinelGroup.MASTER_NAME + "@"), redis);
        assertTrue(redis.contains(":" + group.master().port()), redis);
        var lock = provider.lock(config(NAME)).orElseThrow();
        String keys = group.master().command("KEYS", "*");
        assertTrue(keys.contains(NAME), "the lock is on the master: " + keys);
        lock.unlock();
    }
}
