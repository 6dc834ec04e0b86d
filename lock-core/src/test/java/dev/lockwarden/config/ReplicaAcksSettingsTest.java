package dev.lockwarden.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.ReplicaAcks;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Replica acknowledgement's setting and checks, all before any connection (no Redis here). */
class ReplicaAcksSettingsTest {
    /** Nothing listens there: every failure below must come before a connection. */
    private static final String NOWHERE = "redis://127.0.0.1:1";

    private static Settings property(String value) {
        return new Settings(Map.of(Settings.REPLICA_ACKS, value)::get, Map.of());
    }

    private static ReplicaAcks parsed(Settings s) {
        return ReplicaAcks.fromSettings(s).orElseThrow();
    }

    @Test
    void theSettingReadsReplicasSlashTimeoutFromPropertyOrEnvironment() {
        assertEquals(new ReplicaAcks(1, 100), parsed(property("1/100ms")));
        assertEquals(new ReplicaAcks(2, 500), parsed(property(" 2 / PT0.5S ")));
        assertEquals(ReplicaAcks.OFF, parsed(property("off")));
        assertEquals(ReplicaAcks.OFF, parsed(property("0")));
        assertEquals(ReplicaAcks.OFF, parsed(property("0/100ms")));
        Settings env = new Settings(k -> null, Map.of("LOCKWARDEN_REPLICA_ACKS", "3/1s"));
        assertEquals(new ReplicaAcks(3, 1000), parsed(env));
        assertEquals(Optional.empty(), ReplicaAcks.fromSettings(new Settings(k -> null, Map.of())));
    }

    @Test
    void aBadSettingFailsTheBuildNamingWhereItWasSetAndTheForm() {
        for (String bad : new String[] {"yes", "one/100ms", "1/soon", "-1/100ms", "1/0ms", "1/"}) {
            String m = buildFails(() ->
                    LockManager.builder().redis(NOWHERE).settings(property(bad)).build());
            assertTrue(m.contains("system property lockwarden.replica-acks"), bad + ": " + m);
            assertTrue(
                    m.contains("replicas/timeout, e.g. 1/100ms")
                            || m.contains("write a duration such as 500ms")
                            || m.contains("write e.g. 500ms"),
                    bad + ": the message does not say what is expected: " + m);
        }
        String env = buildFails(() -> LockManager.builder()
                .redis(NOWHERE)
                .settings(new Settings(k -> null, Map.of("LOCKWARDEN_REPLICA_ACKS", "many")))
                .build());
        assertTrue(env.contains("environment variable LOCKWARDEN_REPLICA_ACKS") && env.contains("1/100ms"), env);
    }

    @Test
    void theTimeoutMustBeShorterThanTheDefaultTtlAndTheRedisTimeout() {
        String ttl = buildFails(() -> LockManager.builder()
                .redis(NOWHERE)
                .defaultTtl(Duration.ofMillis(300))
                .replicaAcks(1, Duration.ofMillis(300))
                .build());
        assertTrue(ttl.contains("LockManager.Builder.replicaAcks") && ttl.contains("ttl"), ttl);
        String redis = buildFails(() -> LockManager.builder()
                .redis(NOWHERE)
                .settings(property("1/2s"))
                .build()); // the Redis timeout is 2 s by default
        assertTrue(redis.contains("system property lockwarden.replica-acks") && redis.contains("Redis timeout"), redis);
    }

    @Test
    void theBuilderChecksItsArguments() {
        assertThrows(
                IllegalArgumentException.class, () -> LockManager.builder().replicaAcks(-1, Duration.ofMillis(100)));
        assertThrows(IllegalArgumentException.class, () -> LockManager.builder().replicaAcks(1, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> LockManager.builder().replicaAcks(1, null));
    }

    @Test
    void redlockRefusesItAtBuildSayingWhyAndClusterTakesIt() {
        String redlock = buildFails(() -> LockManager.builder()
                .redlock("redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3")
                .replicaAcks(1, Duration.ofMillis(100))
                .build());
        assertTrue(redlock.contains("Redlock") && redlock.contains("quorum"), redlock);
        // Redis Cluster takes it: the build fails only for the missing nodes
        String cluster = assertThrows(
                        LockStoreException.class,
                        () -> LockManager.builder()
                                .cluster("redis://127.0.0.1:1")
                                .settings(property("1/100ms"))
                                .timeout(Duration.ofMillis(200))
                                .build())
                .getMessage();
        assertFalse(cluster.contains("replica"), cluster);
        // the control: off is accepted on Redlock (the build then fails only for the missing nodes)
        String off = assertThrows(
                        LockStoreException.class,
                        () -> LockManager.builder()
                                .redlock("redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3")
                                .replicaAcks(0, Duration.ofMillis(100))
                                .timeout(Duration.ofMillis(200))
                                .build())
                .getMessage();
        assertTrue(off.contains("needs 2 of 3"), off);
    }

    @Test
    void lockOptionsCheckReplicasAndTimeoutAgainstTheTtl() {
        LockOptions o = LockOptions.ttl(Duration.ofSeconds(1));
        assertEquals(-1, o.replicaAcks(), "not set: the manager's default applies");
        LockOptions on = o.replicaAcks(1, Duration.ofMillis(100));
        assertEquals(1, on.replicaAcks());
        assertEquals(Duration.ofMillis(100), on.replicaAcksTimeout());
        assertEquals(0, o.replicaAcks(0, Duration.ofMillis(100)).replicaAcks(), "0 = off for this lock");
        assertEquals(1, on.waitUpTo(Duration.ofSeconds(1)).autoRefresh(false).replicaAcks(), "copies keep it");
        assertThrows(IllegalArgumentException.class, () -> o.replicaAcks(-1, Duration.ofMillis(100)));
        assertThrows(IllegalArgumentException.class, () -> o.replicaAcks(1, Duration.ZERO));
        IllegalArgumentException longer =
                assertThrows(IllegalArgumentException.class, () -> o.replicaAcks(1, Duration.ofSeconds(1)));
        assertTrue(longer.getMessage().contains("not shorter than the ttl"), longer.getMessage());
    }

    private static String buildFails(Executable build) {
        return assertThrows(IllegalArgumentException.class, build).getMessage();
    }
}
