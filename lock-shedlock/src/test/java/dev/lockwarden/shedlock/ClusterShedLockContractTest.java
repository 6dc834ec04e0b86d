package dev.lockwarden.shedlock;

import dev.lockwarden.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

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
