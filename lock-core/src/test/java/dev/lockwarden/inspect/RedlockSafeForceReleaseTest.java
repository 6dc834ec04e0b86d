package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedlockSafeForceReleaseTest extends AbstractSafeForceReleaseTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(3);

    @Override
    protected RedisServerExtension servers() {
        return REDIS;
    }

    @Override
    protected void awaitReleasedEverywhere(String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (int i = 0; i < REDIS.uris().size(); i++) {
            while (!"0".equals(REDIS.node(i).command("EXISTS", "lock:{" + name + "}"))) {
                assertTrue(System.nanoTime() < deadline, "the release did not reach node " + i + " within 5 s");
                Thread.onSpinWait();
            }
        }
    }

    @Override
    protected LockManager.Builder target(LockManager.Builder builder) {
        return builder.redlock(REDIS.uris().toArray(String[]::new));
    }
}
