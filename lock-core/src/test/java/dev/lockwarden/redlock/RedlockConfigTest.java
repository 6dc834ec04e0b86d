package dev.lockwarden.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.RedlockRules;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Redlock configuration errors are reported at build time with the fix. */
class RedlockConfigTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(4);

    @Test
    void evenOrTooFewNodesAreRejected() {
        List<String> uris = REDIS.uris();
        for (int n : new int[] {1, 2, 4}) {
            String[] some = uris.subList(0, n).toArray(String[]::new);
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> LockManager.builder().redlock(some).build());
            assertTrue(e.getMessage().contains("got " + n) && e.getMessage().contains("odd"), e.getMessage());
        }
    }

    @Test
    void buildFailsWhenNoMajorityAnswers() {
        REDIS.node(1).kill();
        REDIS.node(2).kill();
        String[] three = REDIS.uris().subList(0, 3).toArray(String[]::new);
        LockStoreException e = assertThrows(
                LockStoreException.class,
                () -> LockManager.builder().redlock(three).build());
        assertTrue(e.getMessage().contains("needs 2 of 3"), e.getMessage());
    }

    @Test
    void perNodeTimeoutIsAboutFivePercentOfTheTtl() {
        assertEquals(100, RedlockRules.nodeTimeoutMillis(2_000));
        assertEquals(1_500, RedlockRules.nodeTimeoutMillis(30_000));
        assertEquals(100, RedlockRules.nodeTimeoutMillis(500));
        assertEquals(50, RedlockRules.nodeTimeoutMillis(100));
    }
}
