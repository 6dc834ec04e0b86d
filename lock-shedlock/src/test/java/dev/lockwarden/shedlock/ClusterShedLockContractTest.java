package dev.lockwarden.shedlock;

import java.util.Map;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.testing.RedisServerExtension;

/** The ShedLock provider contract on a 3-master Redis Cluster. */
class ClusterShedLockContractTest extends AbstractShedLockContractTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Override
    RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    Map<String, String> settings() {
        return Map.of("lockwarden.cluster", String.join(",", REDIS.uris()));
    }
}
