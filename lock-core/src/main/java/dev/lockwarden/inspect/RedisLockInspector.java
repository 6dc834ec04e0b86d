package dev.lockwarden.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.HolderInfo;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.LockSource;
import dev.lockwarden.PageRequest;
import dev.lockwarden.internal.LockNames;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * {@link LockInspector} over one Redis deployment (single node or cluster): SCAN (never KEYS) over
 * every scan target, then one pipelined round trip per page for holder info, TTLs and heartbeats.
 * The page cursor is {@code <target index>:<SCAN cursor>}.
 */
public final class RedisLockInspector implements LockInspector {
    private static final int EVENTS_SCANNED = 2_000;
    private static final int EVENTS_RETURNED = 100;

    private final RedisNodeClient node;
    private final KeySpace keys;
    private final long auditMaxLen;

    public RedisLockInspector(RedisNodeClient node, long auditMaxLen) {
        this.node = node;
        this.keys = node.keys();
        this.auditMaxLen = auditMaxLen;
    }

    @Override
    public LockPage list(LockFilter filter, PageRequest page) {
        List<UnifiedJedis> targets = node.scanTargets();
        Cursor cursor = Cursor.parse(page.cursor(), targets.size());
        ScanParams params = new ScanParams().match(keys.lockPattern(filter.namePrefix())).count(Math.max(page.size(), 100));
        List<String> names = new ArrayList<>();
        int target = cursor.target();
        String scan = cursor.scan();
        while (names.size() < page.size() && target < targets.size()) {
            UnifiedJedis t = targets.get(target);
            String from = scan;
            ScanResult<String> r = node.call("list locks", () -> t.scan(from, params));
            for (String key : r.getResult()) {
                String name = keys.nameOf(key);
                if (name != null && key.equals(keys.lock(name))) {
                    names.add(name);
                }
            }
            scan = r.getCursor();
            if ("0".equals(scan)) {
                target++;
            }
        }
        List<LockInfo> infos = new ArrayList<>();
        for (LockInfo i : read(names)) {
            if (filter.application() == null || filter.application().equals(i.holder().application())) {
                infos.add(i);
            }
        }
        String next = target >= targets.size() ? null : target + ":" + scan;
        return new LockPage(infos, next);
    }

    @Override
    public Optional<LockInfo> get(String name) {
        LockNames.check(name);
        List<LockInfo> r = read(List.of(name));
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }

    @Override
    public long fenceOf(String name) {
        return node.currentFence(LockNames.check(name));
    }

    @Override
    public ForceReleaseResult forceRelease(String name, String operator) {
        LockNames.check(name);
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("force-release of '" + name + "' needs the operator's name for the audit record");
        }
        RedisNodeClient.ForceReleased r = node.forceRelease(name);
        if (!r.released()) {
            return new ForceReleaseResult(name, false, 0, r.newFence(), null);
        }
        Map<String, String> audit = new HashMap<>();
        audit.put("name", name);
        audit.put("operator", operator);
        audit.put("at", Long.toString(System.currentTimeMillis()));
        audit.put("oldToken", r.oldToken());
        audit.put("oldFence", Long.toString(r.oldFence()));
        audit.put("newFence", Long.toString(r.newFence()));
        r.holder().forEach((k, v) -> audit.putIfAbsent("holder." + k, v));
        StreamEntryID id = node.call("write audit record for '" + name + "'", () -> node.redis().xadd(KeySpace.AUDIT,
                XAddParams.xAddParams().maxLen(auditMaxLen).approximateTrimming(), audit));
        node.call("write event", () -> node.redis().xadd(KeySpace.EVENTS, XAddParams.xAddParams(),
                Map.of("type", "force-release", "name", name, "fence", Long.toString(r.oldFence()),
                        "operator", operator, "at", audit.get("at"))));
        return new ForceReleaseResult(name, true, r.oldFence(), r.newFence(), id.toString());
    }

    @Override
    public List<LockEvent> events(String name) {
        LockNames.check(name);
        List<StreamEntry> entries = node.call("read events", () ->
                node.redis().xrevrange(KeySpace.EVENTS, (StreamEntryID) null, (StreamEntryID) null, EVENTS_SCANNED));
        List<LockEvent> out = new ArrayList<>();
        for (StreamEntry e : entries) {
            Map<String, String> f = e.getFields();
            if (name.equals(f.get("name"))) {
                long at = parseLong(f.get("at"), e.getID().getTime());
                out.add(new LockEvent(e.getID().toString(), f.getOrDefault("type", "?"), name, Instant.ofEpochMilli(at), f));
                if (out.size() == EVENTS_RETURNED) {
                    break;
                }
            }
        }
        return out;
    }

    /** Reads info + TTL of each name, then the holders' heartbeats: two pipelined round trips. */
    private List<LockInfo> read(List<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        UnifiedJedis redis = node.redis();
        List<Response<Map<String, String>>> infos = new ArrayList<>(names.size());
        List<Response<Long>> ttls = new ArrayList<>(names.size());
        node.call("read lock info", () -> {
            try (AbstractPipeline p = redis.pipelined()) {
                for (String n : names) {
                    infos.add(p.hgetAll(keys.info(n)));
                    ttls.add(p.pttl(keys.lock(n)));
                }
                p.sync();
            }
            return null;
        });
        List<Map<String, String>> found = new ArrayList<>();
        List<Long> foundTtl = new ArrayList<>();
        List<String> foundNames = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            long ttl = ttls.get(i).get();
            if (ttl == -2) {
                continue; // released between SCAN and now
            }
            foundNames.add(names.get(i));
            found.add(infos.get(i).get());
            foundTtl.add(ttl);
        }
        List<Response<Boolean>> alive = new ArrayList<>(found.size());
        node.call("read heartbeats", () -> {
            try (AbstractPipeline p = redis.pipelined()) {
                for (Map<String, String> info : found) {
                    alive.add(p.exists(KeySpace.jvmKey(info.getOrDefault("jvm", "-"))));
                }
                p.sync();
            }
            return null;
        });
        List<LockInfo> out = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            out.add(toInfo(foundNames.get(i), found.get(i), foundTtl.get(i), alive.get(i).get()));
        }
        return out;
    }

    private LockInfo toInfo(String name, Map<String, String> f, long ttl, boolean alive) {
        HolderInfo holder = new HolderInfo(f.getOrDefault("app", ""), f.getOrDefault("host", ""),
                parseLong(f.get("pid"), 0), f.getOrDefault("thread", ""), f.getOrDefault("jvm", ""));
        LockSource source;
        try {
            source = LockSource.valueOf(f.getOrDefault("source", "API"));
        } catch (IllegalArgumentException e) {
            source = LockSource.API;
        }
        return new LockInfo(name, holder, source, f.getOrDefault("method", ""),
                Instant.ofEpochMilli(parseLong(f.get("acquiredAt"), 0)), Duration.ofMillis(Math.max(ttl, 0)),
                parseLong(f.get("fence"), 0), List.of(node.address()), alive);
    }

    private static long parseLong(String s, long fallback) {
        try {
            return s == null ? fallback : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
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
