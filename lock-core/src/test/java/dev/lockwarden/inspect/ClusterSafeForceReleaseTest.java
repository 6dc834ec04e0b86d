package dev.lockwarden.inspect;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClusterSafeForceReleaseTest extends AbstractSafeForceReleaseTest {
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

    @Override
    protected redis.clients.jedis.UnifiedJedis auditReader() {
        java.net.URI u = java.net.URI.create(REDIS.uris().get(0));
        return redis.clients.jedis.RedisClusterClient.builder()
                .nodes(java.util.Set.of(new redis.clients.jedis.HostAndPort(u.getHost(), u.getPort())))
                .build();
    }
}
