package dev.lockwarden.admin.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.LockException;
import dev.lockwarden.LockInspector;

/**
 * Reads the health strip's numbers through the {@link LockInspector}, at most once per
 * {@link #MAX_AGE} for all sessions together: ten open tabs cost Redis what one does.
 */
public final class HealthService {
    /** The window of the lost and force-released counts. */
    public static final Duration WINDOW = Duration.ofMinutes(15);
    /** How long one reading is shown to every page before Redis is read again. */
    public static final Duration MAX_AGE = Duration.ofSeconds(5);
    /** Locks scanned at most to count the held and orphaned ones. */
    public static final int SCAN = 10_000;
    private static final String PROBE = "lockwarden-dashboard:health-probe";

    private final LockInspector inspector;
    private final String deployment;
    private final Clock clock;
    private Health last;

    /**
     * @param inspector the lock-core inspector
     * @param redis     the LockManager's description of its Redis ({@code LockManager.describeRedis()})
     */
    public HealthService(LockInspector inspector, String redis, Clock clock) {
        this.inspector = inspector;
        this.deployment = deployment(redis);
        this.clock = clock;
    }

    /** The latest reading, at most {@link #MAX_AGE} old. */
    public synchronized Health health() {
        Instant now = clock.instant();
        if (last == null || Duration.between(last.at(), now).compareTo(MAX_AGE) >= 0) {
            last = read(now);
        }
        return last;
    }

    private Health read(Instant now) {
        try {
            long t0 = System.nanoTime();
            inspector.get(PROBE);
            Duration roundTrip = Duration.ofNanos(System.nanoTime() - t0);
            List<ClientInfo> clients = inspector.clients(SCAN);
            long held = clients.stream().mapToLong(ClientInfo::locksHeld).sum();
            long orphaned = clients.stream().filter(c -> !c.alive()).mapToLong(ClientInfo::locksHeld).sum();
            int alive = (int) clients.stream().filter(ClientInfo::alive).count();
            long lost = 0;
            long forced = 0;
            for (ActivityCount a : inspector.activity(WINDOW)) {
                lost += a.lost();
                forced += a.forceReleased();
            }
            return new Health(deployment, roundTrip, alive, held, held < SCAN, orphaned, lost, forced, now, Optional.empty());
        } catch (LockException e) {
            return new Health(deployment, Duration.ZERO, 0, 0, false, 0, 0, 0, now, Optional.of(e.getMessage()));
        }
    }

    /** "single node 127.0.0.1:6379", "Redlock, 5 nodes", "Cluster". */
    static String deployment(String redis) {
        if (redis == null || redis.isBlank()) {
            return "Redis";
        }
        if (redis.startsWith("redlock[")) {
            return "Redlock, " + (redis.chars().filter(c -> c == ',').count() + 1) + " nodes";
        }
        if (redis.startsWith("cluster[")) {
            return "Cluster";
        }
        return "single node " + redis;
    }
}
