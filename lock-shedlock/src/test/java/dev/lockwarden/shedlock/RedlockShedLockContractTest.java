package dev.lockwarden.shedlock;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.lockwarden.LockStoreException;
import dev.lockwarden.testing.RedisServerExtension;

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

    /** Redlock gives each node about 5 % of the TTL to answer: a lockAtMostFor of 1 ms leaves no validity. */
    @Test
    void lockAtMostForTooShortForAQuorumFailsLoudly() {
        assertThrows(LockStoreException.class, () -> provider.lock(config(NAME, Duration.ofMillis(1), Duration.ZERO)));
        assertUnlocked(NAME);
    }
}
