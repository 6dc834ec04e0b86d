package dev.lockwarden.inspect;

import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockPage;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.PageRequest;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Pages through the held locks: SCAN (never KEYS) over every scan target of every node, reading each
 * batch through the {@link LockReader}. Over Redlock a lock sits on several nodes; it is listed from
 * the first node scanned that has it. The page cursor is {@code <target index>:<SCAN cursor>}.
 */
final class LockPager {
    /** SCAN batches one list() call may read before it returns a short page with a cursor. */
    static final int SCAN_BATCHES = 50;

    static final long SCAN_MILLIS = 500;

    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;
    private final LockReader reader;

    LockPager(RedisDeployment redis, LockReader reader) {
        this.nodes = redis.nodes();
        this.keys = redis.keySpace();
        this.reader = reader;
    }

    /**
     * SCANs batch by batch and reads each batch's locks (one pipelined round trip per node), keeping
     * those the filter matches, until the page is full or the per-call budget ({@value #SCAN_BATCHES}
     * batches, {@value #SCAN_MILLIS} ms) is spent: then the page may be short, with a cursor to go on.
     */
    LockPage list(LockFilter filter, PageRequest page) {
        List<Target> targets = targets();
        Cursor cursor = Cursor.parse(page.cursor(), targets.size());
        ScanParams params =
                new ScanParams().match(keys.lockPattern(filter.namePrefix())).count(Math.max(page.size(), 100));
        List<LockInfo> infos = new ArrayList<>();
        int target = cursor.target();
        String scan = cursor.scan();
        long deadline = System.nanoTime() + SCAN_MILLIS * 1_000_000;
        for (int batch = 0;
                infos.size() < page.size()
                        && target < targets.size()
                        && batch < SCAN_BATCHES
                        && System.nanoTime() - deadline < 0;
                batch++) {
            Target t = targets.get(target);
            String from = scan;
            ScanResult<String> r = t.node().call("list locks", () -> t.redis().scan(from, params));
            List<String> found = new ArrayList<>();
            for (String key : r.getResult()) {
                String name = keys.nameOf(key);
                if (name != null && key.equals(keys.lock(name))) {
                    found.add(name);
                }
            }
            for (LockInfo i : reader.read(notOnEarlierNodes(t.nodeIndex(), found))) {
                if (filter.matches(i)) {
                    infos.add(i);
                }
            }
            scan = r.getCursor();
            if ("0".equals(scan)) {
                target++;
                scan = "0";
            }
        }
        String next = target >= targets.size() ? null : target + ":" + scan;
        return new LockPage(infos, next);
    }

    /** DBSIZE of each scan target, in the order {@link #list} visits them (its cursor's target index). */
    List<Long> keyCounts() {
        List<Long> out = new ArrayList<>();
        for (Target t : targets()) {
            out.add(t.node().call("count keys", () -> t.redis().dbSize()));
        }
        return out;
    }

    /** Every node's scan targets, in node order (a down Redlock node is skipped). */
    private List<Target> targets() {
        List<Target> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            RedisNodeClient node = nodes.get(i);
            try {
                for (UnifiedJedis t : node.scanTargets()) {
                    out.add(new Target(i, node, t));
                }
            } catch (LockStoreException e) {
                if (nodes.size() == 1) {
                    throw e;
                }
            }
        }
        return out;
    }

    /** Over Redlock a lock sits on several nodes: keep a name only on the first node scanned that has it. */
    private List<String> notOnEarlierNodes(int nodeIndex, List<String> names) {
        List<String> keep = new ArrayList<>(names);
        for (int i = 0; i < nodeIndex && !keep.isEmpty(); i++) {
            RedisNodeClient earlier = nodes.get(i);
            List<String> candidates = List.copyOf(keep);
            try {
                List<Response<Boolean>> exists = new ArrayList<>();
                earlier.call("list locks", () -> {
                    try (AbstractPipeline p = earlier.redis().pipelined()) {
                        candidates.forEach(n -> exists.add(p.exists(keys.lock(n))));
                        p.sync();
                    }
                    return null;
                });
                keep.clear();
                for (int k = 0; k < candidates.size(); k++) {
                    if (!exists.get(k).get()) {
                        keep.add(candidates.get(k));
                    }
                }
            } catch (LockStoreException e) {
                // that node is down, so it was not listed either: keep the names
            }
        }
        return keep;
    }

    private record Target(int nodeIndex, RedisNodeClient node, UnifiedJedis redis) {}

    private record Cursor(int target, String scan) {
        static Cursor parse(String text, int targets) {
            if ("0".equals(text)) {
                return new Cursor(0, "0");
            }
            int colon = text.indexOf(':');
            try {
                int t = Integer.parseInt(text.substring(0, colon));
                if (t < 0 || t >= targets) {
                    throw new NumberFormatException();
                }
                return new Cursor(t, text.substring(colon + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("page cursor '" + text
                        + "' is not one this inspector returned: start again with PageRequest.first(size)");
            }
        }
    }
}
