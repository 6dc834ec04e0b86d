package dev.lockwarden.contract;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract on a 3-master Redis Cluster. */
class ClusterLockBehaviourTest extends AbstractLockBehaviourTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.cluster(REDIS.uris().toArray(String[]::new));
    }
}
