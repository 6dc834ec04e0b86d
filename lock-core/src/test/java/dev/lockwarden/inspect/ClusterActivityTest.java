package dev.lockwarden.inspect;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClusterActivityTest extends AbstractActivityTopologyTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.cluster(REDIS.uris().toArray(String[]::new));
    }
}
