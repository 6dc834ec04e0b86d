package dev.lockwarden.inspect;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class SingleNodeSafeForceReleaseTest extends AbstractSafeForceReleaseTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.redis(REDIS.uri());
    }
}
