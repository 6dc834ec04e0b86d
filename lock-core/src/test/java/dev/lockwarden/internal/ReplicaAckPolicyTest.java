package dev.lockwarden.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockOptions;
import dev.lockwarden.store.ReplicaAcks;
import dev.lockwarden.store.StoreFactory.Topology;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which acknowledgement a lock asks for: its options' over the manager's, checked per lock (no Redis here). */
class ReplicaAckPolicyTest {
    private static final LockOptions TEN_SECONDS = LockOptions.ttl(Duration.ofSeconds(10));
    private static final ReplicaAcks ONE = new ReplicaAcks(1, 100);

    @Test
    void theLocksOwnSettingOverridesTheManagers() {
        ReplicaAckPolicy manager = new ReplicaAckPolicy(ONE, Topology.SINGLE);
        assertEquals(ONE, manager.of("a", TEN_SECONDS));
        assertEquals(ReplicaAcks.OFF, manager.of("a", TEN_SECONDS.replicaAcks(0, Duration.ofMillis(1))));
        assertEquals(new ReplicaAcks(2, 300), manager.of("a", TEN_SECONDS.replicaAcks(2, Duration.ofMillis(300))));
        ReplicaAckPolicy off = new ReplicaAckPolicy(ReplicaAcks.OFF, Topology.SINGLE);
        assertEquals(ReplicaAcks.OFF, off.of("a", TEN_SECONDS));
        assertEquals(ONE, off.of("a", TEN_SECONDS.replicaAcks(1, Duration.ofMillis(100))));
    }

    @Test
    void theManagersTimeoutMustBeShorterThanEachLocksTtl() {
        ReplicaAckPolicy manager = new ReplicaAckPolicy(ONE, Topology.SINGLE);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> manager.of("short", LockOptions.ttl(Duration.ofMillis(100))));
        assertTrue(e.getMessage().contains("the manager's replicaAcks of lock 'short'"), e.getMessage());
        assertEquals(ONE, manager.of("long", LockOptions.ttl(Duration.ofMillis(101))), "the control");
    }

    @Test
    void redlockRefusesALocksOwnSettingAndClusterTakesIt() {
        LockOptions on = TEN_SECONDS.replicaAcks(1, Duration.ofMillis(100));
        ReplicaAckPolicy policy = new ReplicaAckPolicy(ReplicaAcks.OFF, Topology.REDLOCK);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> policy.of("x", on));
        assertTrue(e.getMessage().contains("LockOptions.replicaAcks of lock 'x'"), e.getMessage());
        assertEquals(ReplicaAcks.OFF, policy.of("x", TEN_SECONDS), "the control: off is fine on Redlock");
        assertEquals(ONE, new ReplicaAckPolicy(ReplicaAcks.OFF, Topology.CLUSTER).of("x", on));
    }
}
