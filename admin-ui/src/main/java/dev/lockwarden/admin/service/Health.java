package dev.lockwarden.admin.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the health strip shows at the top of every page.
 *
 * @param deployment     single node, Redlock over n nodes, Cluster, or Sentinel with its current master
 * @param replicas       the replicas the master reports (single node and Sentinel; empty otherwise)
 * @param roundTrip      how long one read from Redis took
 * @param clientsAlive   client JVMs with a live heartbeat
 * @param locksHeld      held locks found by the scan
 * @param exact          whether the scan saw every lock ({@code locksHeld} and {@code orphaned} are exact)
 * @param orphaned       held locks whose holder JVM's heartbeat is gone
 * @param lost           locks lost by their holders in the last {@link HealthService#WINDOW}
 * @param forceReleased  force-releases in the last {@link HealthService#WINDOW}
 * @param at             when it was read
 * @param error          why Redis could not be read (then the counts are zero)
 */
public record Health(
        String deployment,
        java.util.List<String> replicas,
        Duration roundTrip,
        int clientsAlive,
        long locksHeld,
        boolean exact,
        long orphaned,
        long lost,
        long forceReleased,
        Instant at,
        Optional<String> error) {
    public Health {
        replicas = java.util.List.copyOf(replicas);
    }
}
