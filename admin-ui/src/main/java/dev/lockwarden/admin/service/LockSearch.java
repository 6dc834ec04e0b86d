package dev.lockwarden.admin.service;

import dev.lockwarden.LockException;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One filter's scan, run on a background thread until it has {@code wanted} matches, has seen the
 * whole key space, or has used its time budget — a sparse filter over 100,000 locks would otherwise
 * show "0 locks" after the first SCAN batches. The view reads {@link #snapshot()} on each refresh.
 * A name typed in full is looked up directly first, so it shows at once wherever the scan is.
 */
public final class LockSearch {
    /** How long one search may scan before it stops and says so. */
    public static final Duration BUDGET = Duration.ofSeconds(30);

    private final LockInspector inspector;
    private final LockFilter filter;
    private final int wanted;
    private final int targets;
    private final Map<String, LockInfo> found = new LinkedHashMap<>();
    private final String start;
    private volatile boolean cancelled;
    private Snapshot snapshot;

    /**
     * What the search has so far.
     *
     * @param locks    the matches (a page's last SCAN batch may bring a few more than {@code wanted})
     * @param complete the whole key space was seen
     * @param full     {@code wanted} matches were found (more may exist)
     * @param stopped  the time budget ran out (or the search was cancelled) before either
     * @param scanned  the share of the key space seen, when it can be told (single node, Redlock)
     * @param cursor   where a further page goes on (empty when complete)
     * @param error    why reading Redis failed
     */
    public record Snapshot(
            List<LockInfo> locks,
            boolean complete,
            boolean full,
            boolean stopped,
            OptionalDouble scanned,
            Optional<String> cursor,
            Optional<String> error) {
        /** Whether the search still runs. */
        public boolean running() {
            return !complete && !full && !stopped && error.isEmpty();
        }
    }

    /**
     * @param targets how many SCAN targets the deployment has (nodes scanned one after the other; 0 = unknown)
     */
    LockSearch(LockInspector inspector, LockQuery query, int wanted, int targets, Optional<Snapshot> from) {
        this.inspector = inspector;
        this.filter = query.toFilter();
        this.wanted = wanted;
        this.targets = targets;
        from.ifPresent(f -> f.locks().forEach(i -> found.put(i.name(), i)));
        this.start = from.flatMap(Snapshot::cursor).orElse("0");
        this.snapshot = new Snapshot(
                List.copyOf(found.values()), false, false, false, scanned(start), Optional.of(start), Optional.empty());
    }

    /** How many SCAN targets {@code LockManager.describeRedis()} names: 1, the Redlock nodes, or 0 (Cluster: unknown). */
    static int targets(String redis) {
        if (redis == null || redis.isBlank() || redis.startsWith("cluster[")) {
            return redis == null || redis.isBlank() ? 1 : 0;
        }
        return redis.startsWith("redlock[")
                ? (int) redis.chars().filter(c -> c == ',').count() + 1
                : 1;
    }

    /** Waits until the search is done or {@code max} has passed, and returns the latest progress. */
    public synchronized Snapshot awaitSettled(Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (snapshot.running() && System.nanoTime() - end < 0) {
            wait(Math.max(1, (end - System.nanoTime()) / 1_000_000));
        }
        return snapshot;
    }

    /** The latest progress. */
    public synchronized Snapshot snapshot() {
        return snapshot;
    }

    /** Stops the scan at its next step. */
    public void cancel() {
        cancelled = true;
    }

    /** Runs the scan on the calling thread (a background one) until done. */
    void run() {
        long deadline = System.nanoTime() + BUDGET.toNanos();
        try {
            if ("0".equals(start)) {
                lookUpTypedName();
            }
            String cursor = start;
            while (true) {
                int missing = wanted - found.size();
                LockPage page = inspector.list(filter, new PageRequest(cursor, Math.max(1, Math.min(10_000, missing))));
                page.locks().forEach(i -> found.putIfAbsent(i.name(), i));
                cursor = page.nextCursor();
                boolean complete = cursor == null;
                boolean full = found.size() >= wanted;
                boolean stopped = !complete && !full && (cancelled || System.nanoTime() - deadline > 0);
                publish(complete, full, stopped, cursor, Optional.empty());
                if (complete || full || stopped) {
                    return;
                }
            }
        } catch (LockException | IllegalArgumentException e) {
            publish(false, false, false, null, Optional.of(e.getMessage()));
        }
    }

    private void lookUpTypedName() {
        String name = filter.namePrefix();
        if (name == null || name.isEmpty()) {
            return;
        }
        try {
            inspector.get(name).filter(filter::matches).ifPresent(i -> found.put(i.name(), i));
        } catch (IllegalArgumentException notAName) { // a prefix no lock can be named, e.g. with braces
            return;
        }
        publish(false, found.size() >= wanted, false, "0", Optional.empty());
    }

    private synchronized void publish(
            boolean complete, boolean full, boolean stopped, String cursor, Optional<String> error) {
        // all found, also past {@code wanted}: the cursor is past them, a further page would not see them again
        snapshot = new Snapshot(
                List.copyOf(found.values()),
                complete,
                full,
                stopped,
                complete ? OptionalDouble.of(1) : scanned(cursor),
                Optional.ofNullable(cursor),
                error);
        notifyAll();
    }

    /**
     * The share seen, from the pager's cursor {@code <target>:<SCAN cursor>}: Redis's SCAN cursor counts
     * in reversed bits over the hash table, so its 64-bit reversal over 2^64 is the fraction of the table
     * visited, whatever the table's size (while it is not resized).
     */
    OptionalDouble scanned(String cursor) {
        if (cursor == null) {
            return OptionalDouble.of(1);
        }
        if ("0".equals(cursor)) {
            return OptionalDouble.of(0);
        }
        if (targets <= 0) {
            return OptionalDouble.empty();
        }
        int colon = cursor.indexOf(':');
        if (colon < 0) {
            return OptionalDouble.of(0);
        }
        try {
            int target = Integer.parseInt(cursor.substring(0, colon));
            long scan = Long.parseUnsignedLong(cursor.substring(colon + 1));
            double within = (double) (Long.reverse(scan) >>> 11) / (1L << 53);
            return OptionalDouble.of(Math.min(1, (target + within) / targets));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }
}
