package dev.lockwarden.inspect;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.internal.ActivityCounter;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * Reads the per-minute activity hashes the clients' {@link ActivityCounter}s write (SCAN, bounded)
 * and adds the force-releases per old holder's application from the audit stream. Over Redlock it
 * reads the first node that answers: clients write their counts there only, so nothing is summed.
 */
final class ActivityReader {
    /** Bounds of one read: an hour of minutes for a few hundred applications. */
    static final int MAX_KEYS = 20_000;

    private static final int MAX_AUDIT = 10_000;
    private static final int SCAN_COUNT = 500;
    private static final long MAX_MINUTES = TimeUnit.SECONDS.toMinutes(3_600);

    private final RedisDeployment redis;

    ActivityReader(RedisDeployment redis) {
        this.redis = redis;
    }

    /** The first node that answers counts (see {@link RedisDeployment#firstAnswering}). */
    List<ActivityCount> read(Duration window) {
        long minutes = Math.max(1, Math.min(MAX_MINUTES, window.toMinutes()));
        long firstMinute = TimeUnit.MILLISECONDS.toMinutes(System.currentTimeMillis()) - minutes + 1;
        return toList(redis.firstAnswering(n -> readNode(n, firstMinute)));
    }

    /** "<app>\n<minute>" → acquired, busy, lost, force-released, as one node has them. */
    private static Map<String, long[]> readNode(RedisNodeClient node, long firstMinute) {
        Map<String, long[]> counts = new TreeMap<>();
        for (UnifiedJedis target : node.scanTargets()) {
            readCounts(node, keys(node, target, firstMinute), counts);
        }
        readForceReleases(node, firstMinute, counts);
        return counts;
    }

    /** Activity keys of the window on one scan target, at most {@value #MAX_KEYS}. */
    private static List<String> keys(RedisNodeClient node, UnifiedJedis target, long firstMinute) {
        List<String> out = new ArrayList<>();
        ScanParams params = new ScanParams()
                .match(KeySpace.startingWith(KeySpace.ACTIVITY_PREFIX))
                .count(SCAN_COUNT);
        String cursor = "0";
        do {
            String from = cursor;
            ScanResult<String> r = node.call("scan lock activity", () -> target.scan(from, params));
            for (String key : r.getResult()) {
                long minute = minuteOf(key);
                if (minute >= firstMinute && out.size() < MAX_KEYS) {
                    out.add(key);
                }
            }
            cursor = r.getCursor();
        } while (!"0".equals(cursor) && out.size() < MAX_KEYS);
        return out;
    }

    private static void readCounts(RedisNodeClient node, List<String> keys, Map<String, long[]> counts) {
        if (keys.isEmpty()) {
            return;
        }
        List<Response<Map<String, String>>> replies = new ArrayList<>(keys.size());
        node.call("read lock activity", () -> {
            try (AbstractPipeline p = node.redis().pipelined()) {
                keys.forEach(k -> replies.add(p.hgetAll(k)));
                p.sync();
            }
            return null;
        });
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Map<String, String> fields;
            try {
                fields = replies.get(i).get();
            } catch (redis.clients.jedis.exceptions.JedisDataException notAHash) {
                continue; // not written by a client (wrong type): skip it rather than fail the whole read
            }
            String app = key.substring(KeySpace.ACTIVITY_PREFIX.length(), key.lastIndexOf(':'));
            long[] c = counts.computeIfAbsent(app + "\n" + minuteOf(key), k -> new long[4]);
            for (int f = 0; f < ActivityCounter.FIELDS.length; f++) {
                c[f] += LockReader.parseLong(fields.get(ActivityCounter.FIELDS[f]), 0);
            }
        }
    }

    /** Force-releases of the window, counted for the application whose lock was taken. */
    private static void readForceReleases(RedisNodeClient node, long firstMinute, Map<String, long[]> counts) {
        StreamEntryID from = new StreamEntryID(TimeUnit.MINUTES.toMillis(firstMinute), 0);
        List<StreamEntry> entries = node.call(
                "read the audit log",
                () -> node.redis().xrevrange(KeySpace.AUDIT, (StreamEntryID) null, from, MAX_AUDIT));
        for (StreamEntry e : entries) {
            Map<String, String> f = e.getFields();
            long minute = TimeUnit.MILLISECONDS.toMinutes(
                    LockReader.parseLong(f.get("at"), e.getID().getTime()));
            counts.computeIfAbsent(f.getOrDefault("holder.app", "") + "\n" + minute, k -> new long[4])[3]++;
        }
    }

    private static List<ActivityCount> toList(Map<String, long[]> counts) {
        List<ActivityCount> out = new ArrayList<>(counts.size());
        counts.forEach((k, c) -> {
            int nl = k.indexOf('\n');
            out.add(new ActivityCount(
                    k.substring(0, nl),
                    Instant.ofEpochSecond(TimeUnit.MINUTES.toSeconds(Long.parseLong(k.substring(nl + 1)))),
                    c[0],
                    c[1],
                    c[2],
                    c[3]));
        });
        out.sort(java.util.Comparator.comparing(ActivityCount::application).thenComparing(ActivityCount::minute));
        return out;
    }

    /** The epoch minute at the end of an activity key, or -1 when the key is not one. */
    static long minuteOf(String key) {
        int colon = key.lastIndexOf(':');
        if (colon <= KeySpace.ACTIVITY_PREFIX.length()) {
            return -1;
        }
        try {
            return Long.parseLong(key.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
