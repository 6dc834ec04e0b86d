package dev.lockwarden.bench;

import dev.lockwarden.LockFilter;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Scenario 7: the dashboard's view of N held locks through {@code LockInspector.list}: time to the
 * first page and to a full scan, next to a bare {@code SCAN MATCH lock:*} of the same keys.
 */
final class ListingScenario {
    private static final int FIRST_PAGE = 50;
    private static final int SCAN_PAGE = 1_000;
    private static final int REPEATS = 5;

    private ListingScenario() {}

    static void run(Bench b) throws InterruptedException {
        int n = b.config.listingLocks();
        LockOptions opts = LockOptions.ttl(Duration.ofMinutes(10)).autoRefresh(false);
        Bench.progress("scenario 7: taking " + n + " locks");
        try (LockManager locks = LockwardenContender.build(List.of(b.single), "bench-listing")) {
            long t0 = System.nanoTime();
            List<LockHandle> held = Holders.takeMany(
                    n,
                    16,
                    b.config.quick() ? 20_000 : 90_000,
                    i -> locks.tryAcquire("s7:" + i, opts).orElse(null));
            double takeSecs = (System.nanoTime() - t0) / 1e9;
            LockInspector inspector = locks.inspector();
            Bench.progress("scenario 7: listing");
            long[] first = new long[REPEATS];
            int firstCount = 0;
            for (int r = 0; r < REPEATS; r++) {
                long s = System.nanoTime();
                LockPage p = inspector.list(LockFilter.all(), PageRequest.first(FIRST_PAGE));
                first[r] = System.nanoTime() - s;
                firstCount = p.locks().size();
            }
            long s = System.nanoTime();
            long listed = 0;
            int pages = 0;
            PageRequest page = PageRequest.first(SCAN_PAGE);
            long scanDeadline =
                    s + Duration.ofSeconds(b.config.quick() ? 20 : 60).toNanos();
            while (page != null && System.nanoTime() - scanDeadline < 0) {
                LockPage p = inspector.list(LockFilter.all(), page);
                listed += p.locks().size();
                pages++;
                page = p.next(SCAN_PAGE).orElse(null);
            }
            long full = System.nanoTime() - s;
            boolean complete = page == null;
            long[] raw = rawScan(b.single);
            Table t = new Table(
                    "what",
                    "locks held",
                    "first page (" + FIRST_PAGE + ") ms, median of " + REPEATS,
                    "full scan ms",
                    "locks listed",
                    "pages",
                    "full scan vs bare SCAN");
            Arrays.sort(first);
            t.row(
                    "Lockwarden `inspector().list(...)`",
                    held.size(),
                    String.format(Locale.ROOT, "%.2f (shown: %d)", first[REPEATS / 2] / 1e6, firstCount),
                    String.format(Locale.ROOT, "%.0f%s", full / 1e6, complete ? "" : " (stopped at the time bound)"),
                    listed,
                    pages,
                    Table.ratio(full, raw[0]));
            t.row(
                    "bare `SCAN MATCH lock:* COUNT 1000` (keys only, the Redis limit)",
                    held.size(),
                    "",
                    String.format(Locale.ROOT, "%.0f", raw[0] / 1e6),
                    raw[1],
                    "",
                    "1.00×");
            b.section(
                    "Scenario 7 — dashboard listing with " + held.size() + " held locks",
                    t.markdown()
                            + String.format(
                                    Locale.ROOT,
                                    "%nTaking the %d locks took %.1f s (16 threads).%n",
                                    held.size(),
                                    takeSecs));
            RedisStats.flushAll(b.single); // releasing 100,000 locks one by one is not what we measure
            Holders.forEach(held, 16, 30_000, LockHandle::release);
        }
    }

    /** Nanos of a bare SCAN over the lock keys, and how many keys it returned (incl. :info / :fence). */
    private static long[] rawScan(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port, 30_000)) {
            ScanParams params = new ScanParams().match("lock:*").count(SCAN_PAGE);
            long s = System.nanoTime();
            long keys = 0;
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> r = j.scan(cursor, params);
                keys += r.getResult().size();
                cursor = r.getCursor();
            } while (!"0".equals(cursor) && System.nanoTime() - s < 60_000_000_000L);
            return new long[] {System.nanoTime() - s, keys};
        }
    }
}
