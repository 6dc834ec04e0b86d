package dev.lockwarden.contract;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The lock contract on a Sentinel deployment (master, two replicas, three sentinels; one group for the class). */
class SentinelLockBehaviourTest extends AbstractLockBehaviourTest {
    private static RedisSentinelGroup group;

    @BeforeAll
    static void start() {
        group = new RedisSentinelGroup(false).start();
    }

    @AfterAll
    static void stop() {
        if (group != null) {
            group.close();
        }
    }

    @Override
    protected RedisServerExtension servers() {
        throw new UnsupportedOperationException("a Sentinel group, not a RedisServerExtension: see dataNodes()");
    }

    @Override
    protected void flushAll() {
        group.master().command("FLUSHALL"); // the replicas follow
    }

    @Override
    protected List<RedisNode> dataNodes() {
        return List.of(group.master());
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.sentinel(
                RedisSentinelGroup.MASTER_NAME, group.sentinelUris().toArray(String[]::new));
    }
}
