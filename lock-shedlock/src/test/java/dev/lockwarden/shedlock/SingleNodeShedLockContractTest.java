package dev.lockwarden.shedlock;

import dev.lockwarden.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ShedLock provider contract on one Redis node. */
class SingleNodeShedLockContractTest extends AbstractShedLockContractTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Override
    RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    Map<String, String> settings() {
        return Map.of("lockwarden.redis", REDIS.uri());
    }
}
