package dev.lockwarden.admin.service;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.LockException;
import dev.lockwarden.LockInspector;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads the health strip's numbers through the {@link LockInspector} on a background thread, at
 * most once per {@link #MAX_AGE} for all sessions together: ten open tabs cost Redis what one does,
 * and no page waits for the reading (it shows the last one). The total of held locks is counted apart
 * ({@link #held()}: at most every {@link #COUNT_EVERY}, for at most {@link #COUNT_BUDGET}).
 */
public final class HealthService {
    /** The window of the lost and force-released counts. */
    public static final Duration WINDOW = Duration.ofMinutes(15);
    /** How long one reading is shown to every page before Redis is read again. */
    public static final Duration MAX_AGE = Duration.ofSeconds(10);
    /** Locks scanned at most to count the orphaned ones. */
    public static final int SCAN = 2_000;
    /** How long the total of held locks is shown before it is counted again. */
    public static final Duration COUNT_EVERY = Duration.ofSeconds(30);
    /** How long one count of the held locks may run before it stops and says it is incomplete. */
    public static final Duration COUNT_BUDGET = Duration.ofSeconds(3);

    private static final String PROBE = "lockwarden-dashboard:health-probe";

    private final LockInspector inspector;
    private final java.util.function.Supplier<String> redis;
    private final Clock clock;
    private final java.util.concurrent.ExecutorService reader =
            java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "lockwarden-admin-health");
                t.setDaemon(true);
                return t;
            });
    private final java.util.concurrent.ExecutorService counter =
            java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "lockwarden-admin-count");
                t.setDaemon(true);
                return t;
            });
    private final Duration countBudget;
    private volatile Health last;
    private boolean reading;
    private HeldLocks held;
    private Instant countedAt;
    private boolean counting;

    /**
     * @param inspector the lock-core inspector
     * @param redis     the LockManager's description of its Redis ({@code LockManager.describeRedis()})
     */
    public HealthService(LockInspector inspector, String redis, Clock clock) {
        this(inspector, () -> redis, clock);
    }

    /**
     * @param inspector the lock-core inspector
     * @param redis     {@code LockManager::describeRedis}, read at each reading (a Sentinel's master changes)
     */
    public HealthService(LockInspector inspector, java.util.function.Supplier<String> redis, Clock clock) {
        this(inspector, redis, clock, COUNT_BUDGET);
    }

    /** @param countBudget how long one count of the held locks may run ({@link #COUNT_BUDGET}) */
    HealthService(
            LockInspector inspector, java.util.function.Supplier<String> redis, Clock clock, Duration countBudget) {
        this.inspector = inspector;
        this.redis = redis;
        this.clock = clock;
        this.countBudget = countBudget;
    }

    /**
     * The total of held locks as last counted (empty before the first count ends); starts a count in the
     * background, bounded by the budget ({@link #COUNT_BUDGET}), when the last one began {@link #COUNT_EVERY}
     * ago. A count that fails (Redis unreachable) leaves the last one shown; the strip says Redis is down.
     */
    public synchronized Optional<HeldLocks> held() {
        Instant now = clock.instant();
        if (!counting && (countedAt == null || Duration.between(countedAt, now).compareTo(COUNT_EVERY) >= 0)) {
            counting = true;
            countedAt = now;
            counter.execute(this::count);
        }
        return Optional.ofNullable(held);
    }

    private void count() {
        HeldLocks next = null;
        try {
            long t0 = System.nanoTime();
            dev.lockwarden.LockCount c = inspector.count(countBudget);
            next = new HeldLocks(
                    c.count(), c.complete(), countBudget, Duration.ofNanos(System.nanoTime() - t0), clock.instant());
        } catch (RuntimeException e) { // the health reading says Redis is unreachable; the next count tries again
            System.getLogger(HealthService.class.getName())
                    .log(System.Logger.Level.WARNING, "cannot count the held locks: " + e.getMessage());
        } finally {
            synchronized (this) {
                if (next != null) {
                    held = next;
                }
                counting = false;
            }
        }
    }

    /**
     * The latest reading (empty before the first one is done); starts a new one in the background
     * when it is {@link #MAX_AGE} old.
     */
    public synchronized Optional<Health> health() {
        held();
        Health h = last;
        if (!reading && (h == null || Duration.between(h.at(), clock.instant()).compareTo(MAX_AGE) >= 0)) {
            reading = true;
            reader.execute(() -> {
                Health next = read(clock.instant());
                synchronized (this) {
                    last = next;
                    reading = false;
                }
            });
        }
        return Optional.ofNullable(h);
    }

    private Health read(Instant now) {
        String deployment;
        try {
            deployment = deployment(redis.get());
        } catch (RuntimeException e) {
            deployment = "Redis";
        }
        try {
            long t0 = System.nanoTime();
            inspector.get(PROBE);
            Duration roundTrip = Duration.ofNanos(System.nanoTime() - t0);
            List<ClientInfo> clients = inspector.clients(SCAN);
            long scanned = clients.stream().mapToLong(ClientInfo::locksHeld).sum();
            long orphaned = clients.stream()
                    .filter(c -> !c.alive())
                    .mapToLong(ClientInfo::locksHeld)
                    .sum();
            int alive = (int) clients.stream().filter(ClientInfo::alive).count();
            long lost = 0;
            long forced = 0;
            for (ActivityCount a : inspector.activity(WINDOW)) {
                lost += a.lost();
                forced += a.forceReleased();
            }
            List<String> replicas = inspector.replicas();
            return new Health(
                    deployment,
                    replicas,
                    roundTrip,
                    alive,
                    scanned < SCAN,
                    orphaned,
                    lost,
                    forced,
                    now,
                    Optional.empty());
        } catch (LockException | IllegalStateException e) {
            return new Health(
                    deployment, List.of(), Duration.ZERO, 0, false, 0, 0, 0, now, Optional.of(e.getMessage()));
        }
    }

    /** "single node 127.0.0.1:6379", "Redlock, 5 nodes", "Cluster", "Sentinel mymaster, master 10.0.0.1:6379". */
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
        if (redis.startsWith("sentinel[")) { // sentinel[mymaster@redis://s1:26379,...] master host:port
            int at = redis.indexOf('@');
            int master = redis.lastIndexOf("] master ");
            String name = at < 0 ? "" : " " + redis.substring("sentinel[".length(), at);
            return "Sentinel" + name + (master < 0 ? "" : ", master " + redis.substring(master + "] master ".length()));
        }
        return "single node " + redis;
    }
}
