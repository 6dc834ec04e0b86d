package dev.lockwarden.contract;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract on a 5-node Redlock. */
class RedlockLockBehaviourTest extends AbstractLockBehaviourTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(5);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.redlock(REDIS.uris().toArray(String[]::new));
    }
}
