package dev.lockwarden.inspect;

import dev.lockwarden.LockCount;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Counts the held locks: SCAN MATCH over the lock keys (never KEYS) on the same scan targets as {@link LockPager}
 * (every Cluster master, every Redlock node), until the key space is seen or the time budget is spent. Each name
 * is kept with the number of nodes it was seen on, so a key SCAN returns twice counts once, and over Redlock a
 * lock counts once when a quorum of nodes hold it (as {@link LockReader} shows it). The map grows only as far as
 * the budget lets the scan go. A Redlock node that cannot be read makes the count incomplete (a lower bound).
 */
final class LockCounter {
    /**
     * Keys SCAN looks at per call: few round trips (60 for 100,000 locks, whose :info and :fence keys count too),
     * each call still short for Redis (about a millisecond).
     */
    static final int SCAN_COUNT = 5_000;

    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;
    private final int quorum;

    LockCounter(RedisDeployment redis) {
        this.nodes = redis.nodes();
        this.keys = redis.keySpace();
        this.quorum = nodes.size() == 1 ? 1 : redis.quorum();
    }

    LockCount count(Duration budget) {
        if (budget == null || budget.isNegative()) {
            throw new IllegalArgumentException("count budget must be zero or more, not " + budget);
        }
        long deadline = System.nanoTime() + budget.toNanos();
        ScanParams params = new ScanParams().match(keys.lockPattern("")).count(SCAN_COUNT);
        Map<String, Integer> seenOn = new HashMap<>();
        boolean complete = true;
        for (RedisNodeClient node : nodes) {
            Map<String, Integer> here = new HashMap<>();
            try {
                if (!scan(node, params, deadline, here)) {
                    here.keySet().forEach(n -> seenOn.merge(n, 1, Integer::sum));
                    return new LockCount(held(seenOn), false);
                }
            } catch (LockStoreException e) {
                if (nodes.size() == 1) {
                    throw e;
                }
                complete = false; // a lock that node holds may lack its quorum among the others
                continue;
            }
            here.keySet().forEach(n -> seenOn.merge(n, 1, Integer::sum));
        }
        return new LockCount(held(seenOn), complete);
    }

    /** SCANs every target of one node into {@code here}; false when the deadline came first. */
    private boolean scan(RedisNodeClient node, ScanParams params, long deadline, Map<String, Integer> here) {
        for (UnifiedJedis target : node.scanTargets()) {
            String cursor = "0";
            do {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                String from = cursor;
                ScanResult<String> r = node.call("count locks", () -> target.scan(from, params));
                for (String key : r.getResult()) {
                    String name = keys.nameOf(key);
                    if (name != null && key.equals(keys.lock(name))) {
                        here.put(name, 1);
                    }
                }
                cursor = r.getCursor();
            } while (!"0".equals(cursor));
        }
        return true;
    }

    private long held(Map<String, Integer> seenOn) {
        return quorum == 1
                ? seenOn.size()
                : seenOn.values().stream().filter(n -> n >= quorum).count();
    }
}
