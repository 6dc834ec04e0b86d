package dev.lockwarden.shedlock;

import dev.lockwarden.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ShedLock provider contract on Redlock over 5 independent nodes. */
class RedlockShedLockContractTest extends AbstractShedLockContractTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    @Override
    RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    Map<String, String> settings() {
        return Map.of("lockwarden.redlock", String.join(",", REDIS.uris()));
    }
}
