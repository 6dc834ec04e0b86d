package dev.lockwarden.contract;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract on one redis-server. */
class SingleNodeLockBehaviourTest extends AbstractLockBehaviourTest {
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
