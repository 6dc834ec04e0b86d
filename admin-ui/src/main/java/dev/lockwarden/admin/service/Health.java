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
 * @param exact          whether the scan for orphans saw every lock ({@code orphaned} is exact; the total of held
 *                       locks is counted apart: {@link HealthService#held()})
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
