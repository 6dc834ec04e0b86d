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
import java.util.OptionalLong;

/**
 * One filter's scan, run on a background thread until it has {@code wanted} matches, has seen the
 * whole key space, or has used its time budget — a sparse filter over 100,000 locks would otherwise
 * show "0 locks" after the first SCAN batches. The view reads {@link #snapshot()} on each refresh.
 * A name typed in full is looked up directly first, so it shows at once wherever the scan is.
 */
public final class LockSearch {
    /** How long one search may scan before it stops and says so (unless the service sets another budget). */
    public static final Duration BUDGET = Duration.ofSeconds(30);

    private final LockInspector inspector;
    private final LockFilter filter;
    private final int wanted;
    private final int targets;
    private final Duration budget;
    /** DBSIZE of each node the scan visits, in its order (empty: unknown); read when the scan starts and ends. */
    private List<Long> keyCounts = List.of();

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
     * @param scanned  the share of the key space seen: keys scanned over all keys when those are known, else
     *                 told from the SCAN cursor (single node, Redlock)
     * @param keysScanned the keys seen so far (estimated from the SCAN cursor and each node's DBSIZE; when
     *                 complete, every key at the end of the scan)
     * @param keyCount the keys in the key space (DBSIZE, summed over the nodes scanned)
     * @param budget   how long the search could scan
     * @param cursor   where a further page goes on (empty when complete)
     * @param error    why reading Redis failed
     */
    public record Snapshot(
            List<LockInfo> locks,
            boolean complete,
            boolean full,
            boolean stopped,
            OptionalDouble scanned,
            OptionalLong keysScanned,
            OptionalLong keyCount,
            Duration budget,
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
        this(inspector, query, wanted, targets, BUDGET, from);
    }

    /**
     * @param budget how long the search may scan before it stops and says so
     */
    LockSearch(
            LockInspector inspector,
            LockQuery query,
            int wanted,
            int targets,
            Duration budget,
            Optional<Snapshot> from) {
        this.inspector = inspector;
        this.filter = query.toFilter();
        this.wanted = wanted;
        this.targets = targets;
        this.budget = budget;
        from.ifPresent(f -> f.locks().forEach(i -> found.put(i.name(), i)));
        this.start = from.flatMap(Snapshot::cursor).orElse("0");
        this.snapshot = new Snapshot(
                List.copyOf(found.values()),
                false,
                false,
                false,
                from.map(Snapshot::scanned).orElse(scanned(start)),
                from.map(Snapshot::keysScanned).orElse(OptionalLong.of(0)),
                from.map(Snapshot::keyCount).orElse(OptionalLong.empty()),
                budget,
                Optional.of(start),
                Optional.empty());
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
        long deadline = System.nanoTime() + budget.toNanos();
        try {
            keyCounts = keyCounts();
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
                if (complete) {
                    List<Long> atEnd = keyCounts(); // every key there is now has been seen
                    keyCounts = atEnd.isEmpty() ? keyCounts : atEnd;
                }
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

    /** The key count of each node scanned, or none when the inspector cannot tell or Redis refuses (DBSIZE). */
    private List<Long> keyCounts() {
        try {
            return List.copyOf(inspector.keyCounts());
        } catch (LockException e) { // only the progress shown suffers; list() says what is wrong
            return List.of();
        }
    }

    private synchronized void publish(
            boolean complete, boolean full, boolean stopped, String cursor, Optional<String> error) {
        OptionalLong keys = keyCounts.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(keyCounts.stream().mapToLong(Long::longValue).sum());
        OptionalLong seen = error.isPresent() ? snapshot.keysScanned() : keysScanned(cursor, keyCounts);
        OptionalDouble share;
        if (complete) {
            share = OptionalDouble.of(1);
        } else if (seen.isPresent() && keys.isPresent() && keys.getAsLong() > 0) {
            share = OptionalDouble.of(Math.min(1, (double) seen.getAsLong() / keys.getAsLong()));
        } else {
            share = scanned(cursor);
        }
        // all found, also past {@code wanted}: the cursor is past them, a further page would not see them again
        snapshot = new Snapshot(
                List.copyOf(found.values()),
                complete,
                full,
                stopped,
                error.isPresent() ? snapshot.scanned() : share,
                seen,
                keys,
                budget,
                Optional.ofNullable(cursor),
                error);
        notifyAll();
    }

    /**
     * The keys seen at the pager's cursor {@code <node>:<SCAN cursor>}: every key of the nodes before, and the
     * share of this node's table the SCAN cursor has passed ({@link #within}) times its DBSIZE; null = all.
     */
    static OptionalLong keysScanned(String cursor, List<Long> keyCounts) {
        if (keyCounts.isEmpty()) {
            return OptionalLong.empty();
        }
        if (cursor == null) {
            return OptionalLong.of(keyCounts.stream().mapToLong(Long::longValue).sum());
        }
        if ("0".equals(cursor)) {
            return OptionalLong.of(0);
        }
        int colon = cursor.indexOf(':');
        try {
            int target = Integer.parseInt(cursor.substring(0, colon));
            if (target < 0 || target >= keyCounts.size()) {
                return OptionalLong.empty();
            }
            long before = keyCounts.subList(0, target).stream()
                    .mapToLong(Long::longValue)
                    .sum();
            return OptionalLong.of(before + Math.round(within(cursor.substring(colon + 1)) * keyCounts.get(target)));
        } catch (RuntimeException e) { // not the pager's cursor
            return OptionalLong.empty();
        }
    }

    /**
     * The share of one node's hash table a SCAN cursor has passed: Redis's SCAN cursor counts in reversed bits
     * over the table, so its 64-bit reversal over 2^64 is the fraction visited, whatever the table's size (while
     * it is not resized).
     */
    static double within(String scanCursor) {
        return (double) (Long.reverse(Long.parseUnsignedLong(scanCursor)) >>> 11) / (1L << 53);
    }

    /**
     * The share seen, from the pager's cursor {@code <target>:<SCAN cursor>} alone, counting each node alike
     * ({@link #within}): when the nodes' key counts are unknown.
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
            return OptionalDouble.of(Math.min(1, (target + within(cursor.substring(colon + 1))) / targets));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }
}
