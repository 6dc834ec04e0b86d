package dev.lockwarden.inspect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.PageRequest;
import dev.lockwarden.internal.LockNames;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * {@link LockInspector} over one Redis deployment (single node or cluster) or over the independent
 * nodes of a Redlock: SCAN (never KEYS) over every scan target of every node, then pipelined reads
 * per page ({@link LockReader}). The page cursor is {@code <target index>:<SCAN cursor>}. Over
 * Redlock a lock shows when a majority of nodes hold it, with those nodes in {@link LockInfo#nodes()},
 * and force-release goes to every node.
 */
public final class RedisLockInspector implements LockInspector {
    /** SCAN batches one list() call may read before it returns a short page with a cursor. */
    static final int SCAN_BATCHES = 50;
    static final long SCAN_MILLIS = 500;
    static final int RELEASE_ALL_SCAN = 100_000;

    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;
    private final long auditMaxLen;
    private final LockReader reader;
    private final int quorum;
    private final ForceRelease forceRelease;
    private final Overviews overviews;
    private final ActivityReader activity;

    /** Over a single node or a cluster. */
    public RedisLockInspector(RedisNodeClient node, long auditMaxLen) {
        this(List.of(node), auditMaxLen);
    }

    /** Over the nodes of a store: one for a single node or a cluster, N for Redlock. */
    public RedisLockInspector(List<RedisNodeClient> nodes, long auditMaxLen) {
        this.nodes = List.copyOf(nodes);
        this.keys = nodes.get(0).keySpace();
        this.auditMaxLen = auditMaxLen;
        this.reader = new LockReader(this.nodes);
        this.quorum = nodes.size() / 2 + 1;
        this.forceRelease = new ForceRelease(this.nodes, auditMaxLen);
        this.overviews = new Overviews(this.nodes);
        this.activity = new ActivityReader(this.nodes);
    }

    /**
     * SCANs batch by batch and reads each batch's locks (one pipelined round trip per node), keeping
     * those the filter matches, until the page is full or the per-call budget ({@value #SCAN_BATCHES}
     * batches, {@value #SCAN_MILLIS} ms) is spent: then the page may be short, with a cursor to go on.
     */
    @Override
    public LockPage list(LockFilter filter, PageRequest page) {
        List<Target> targets = targets();
        Cursor cursor = Cursor.parse(page.cursor(), targets.size());
        ScanParams params = new ScanParams().match(keys.lockPattern(filter.namePrefix())).count(Math.max(page.size(), 100));
        List<LockInfo> infos = new ArrayList<>();
        int target = cursor.target();
        String scan = cursor.scan();
        long deadline = System.nanoTime() + SCAN_MILLIS * 1_000_000;
        for (int batch = 0; infos.size() < page.size() && target < targets.size()
                && batch < SCAN_BATCHES && System.nanoTime() - deadline < 0; batch++) {
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

    @Override
    public List<LockInfo> getAll(List<String> names) {
        names.forEach(LockNames::check);
        return reader.read(List.copyOf(names));
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

    @Override
    public Optional<LockInfo> get(String name) {
        LockNames.check(name);
        List<LockInfo> r = reader.read(List.of(name));
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }

    /** The highest counter of the nodes that answer (a majority must). */
    @Override
    public long fenceOf(String name) {
        LockNames.check(name);
        long max = 0;
        List<String> failures = new ArrayList<>();
        for (RedisNodeClient node : nodes) {
            try {
                max = Math.max(max, node.currentFence(name));
            } catch (LockStoreException e) {
                failures.add(e.getMessage());
            }
        }
        requireMajority("read the fence of '" + name + "'", failures);
        return max;
    }

    @Override
    public ForceReleaseResult forceRelease(String name, String operator) {
        LockNames.check(name);
        // who holds it, for the audit record (the info hash has only the per-lock part)
        dev.lockwarden.HolderInfo holder = operator == null || operator.isBlank() ? null : get(name).map(LockInfo::holder).orElse(null);
        return forceRelease.run(name, "", 0, operator, holder);
    }

    @Override
    public ForceReleaseResult forceRelease(LockInfo seen, String operator) {
        LockNames.check(seen.name());
        if (seen.tokenId().isEmpty()) {
            throw new IllegalArgumentException("the LockInfo of '" + seen.name() + "' has no token id: read it with get() or list()");
        }
        return forceRelease.run(seen.name(), seen.tokenId(), seen.fencingToken(), operator, seen.holder());
    }

    @Override
    public List<dev.lockwarden.FenceCounter> fences(String prefix, int max) {
        return overviews.fences(prefix == null ? "" : prefix, Math.max(1, max));
    }

    @Override
    public List<dev.lockwarden.ClientInfo> clients(int maxLocksScanned) {
        return overviews.clients(Math.max(1, maxLocksScanned), reader::read);
    }

    /** Bounded: scans at most {@value #RELEASE_ALL_SCAN} locks. */
    @Override
    public List<ForceReleaseResult> releaseAllOf(String jvmId, String operator) {
        if (jvmId == null || jvmId.isBlank()) {
            throw new IllegalArgumentException("releaseAllOf needs the client's JVM id");
        }
        List<LockInfo> owned = overviews.locks(RELEASE_ALL_SCAN, reader::read).stream()
                .filter(i -> jvmId.equals(i.holder().jvmId())).toList();
        if (owned.stream().anyMatch(LockInfo::holderAlive)) {
            throw new IllegalStateException("client " + jvmId + " is alive (its heartbeat is present): release its locks one by one if you must");
        }
        List<ForceReleaseResult> out = new ArrayList<>();
        for (LockInfo i : owned) {
            out.add(forceRelease(i, operator));
        }
        return out;
    }

    @Override
    public List<dev.lockwarden.AuditRecord> audit(int max) {
        return overviews.audit(Math.max(1, Math.min(max, 10_000)));
    }

    @Override
    public List<dev.lockwarden.ActivityCount> activity(java.time.Duration window) {
        return activity.read(window);
    }

    private void requireMajority(String what, List<String> failures) {
        if (failures.isEmpty()) {
            return;
        }
        if (nodes.size() == 1 || nodes.size() - failures.size() < quorum) {
            throw new LockStoreException("cannot " + what + ": " + failures.size() + " of " + nodes.size()
                    + " Redis nodes failed: " + String.join("; ", failures));
        }
    }

    /** Events of the first node that answers (every client writes its events to its first node). */
    @Override
    public List<LockEvent> events(String name) {
        LockNames.check(name);
        LockStoreException failure = null;
        for (RedisNodeClient node : nodes) {
            try {
                return events(node, name);
            } catch (LockStoreException e) {
                failure = failure == null ? e : failure;
            }
        }
        throw failure;
    }

    /** The lock's own history merged with the current holder and the global stream (see {@link LockHistory}). */
    private List<LockEvent> events(RedisNodeClient node, String name) {
        return LockHistory.read(node, name, get(name));
    }

    private record Target(int nodeIndex, RedisNodeClient node, UnifiedJedis redis) {
    }

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
                throw new IllegalArgumentException("page cursor '" + text + "' is not one this inspector returned: start again with PageRequest.first(size)");
            }
        }
    }
}
