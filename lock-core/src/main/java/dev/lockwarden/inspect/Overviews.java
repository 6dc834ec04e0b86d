package dev.lockwarden.inspect;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.FenceCounter;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.internal.Heartbeat;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisNodeClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The dashboard's overviews beyond single locks: fencing counters, client JVMs, the audit log. All bounded.
 * Over 200 lines because its three bounded SCAN readers (fences, client JVMs, the audit) share one scan helper.
 */
final class Overviews {
    private static final int SCAN_COUNT = 500;
    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;

    Overviews(List<RedisNodeClient> nodes) {
        this.nodes = nodes;
        this.keys = nodes.get(0).keySpace();
    }

    List<FenceCounter> fences(String prefix, int max) {
        String pattern = keys.fencePattern(prefix);
        Map<String, FenceCounter> byName = new TreeMap<>();
        for (RedisNodeClient node : nodes) {
            try {
                for (UnifiedJedis target : node.scanTargets()) {
                    List<String> names = scan(node, target, pattern, max, key -> {
                        String name = keys.nameOf(key);
                        return name != null && key.equals(keys.fence(name)) ? name : null;
                    });
                    readFences(node, names, byName);
                }
            } catch (LockStoreException e) {
                if (nodes.size() == 1) {
                    throw e;
                }
            }
        }
        List<FenceCounter> out = new ArrayList<>(byName.values());
        return out.size() > max ? out.subList(0, max) : out;
    }

    private void readFences(RedisNodeClient node, List<String> names, Map<String, FenceCounter> into) {
        List<Response<String>> values = new ArrayList<>();
        List<Response<Long>> ttls = new ArrayList<>();
        List<Response<Boolean>> held = new ArrayList<>();
        node.call("read fencing counters", () -> {
            values.clear();
            ttls.clear();
            held.clear();
            try (AbstractPipeline p = node.redis().pipelined()) {
                for (String n : names) {
                    values.add(p.get(keys.fence(n)));
                    ttls.add(p.pttl(keys.fence(n)));
                    held.add(p.exists(keys.lock(n)));
                }
                p.sync();
            }
            return null;
        });
        for (int i = 0; i < names.size(); i++) {
            long v = LockReader.parseLong(values.get(i).get(), 0);
            FenceCounter c = new FenceCounter(
                    names.get(i),
                    v,
                    Duration.ofMillis(Math.max(0, ttls.get(i).get())),
                    held.get(i).get());
            into.merge(names.get(i), c, (a, b) -> a.value() >= b.value() ? a : b);
        }
    }

    List<ClientInfo> clients(
            int maxLocksScanned, java.util.function.Function<List<String>, List<dev.lockwarden.LockInfo>> read) {
        Map<String, ClientInfo> byJvm = new LinkedHashMap<>();
        RedisNodeClient node = nodes.get(0);
        for (UnifiedJedis target : node.scanTargets()) {
            List<String> beats = scan(node, target, KeySpace.startingWith(KeySpace.JVM_PREFIX), 10_000, k -> k);
            List<Response<String>> values = new ArrayList<>();
            List<Response<Long>> ttls = new ArrayList<>();
            node.call("read heartbeats", () -> {
                values.clear();
                ttls.clear();
                try (AbstractPipeline p = node.redis().pipelined()) {
                    for (String k : beats) {
                        values.add(p.get(k));
                        ttls.add(p.pttl(k));
                    }
                    p.sync();
                }
                return null;
            });
            for (int i = 0; i < beats.size(); i++) {
                String id = beats.get(i).substring(KeySpace.JVM_PREFIX.length());
                String v = values.get(i).get();
                if (v == null) {
                    continue;
                }
                Heartbeat.Beat b = Heartbeat.parse(v);
                byJvm.put(
                        id,
                        new ClientInfo(
                                id,
                                b.application(),
                                b.host(),
                                b.pid(),
                                b.version(),
                                b.javaVersion(),
                                true,
                                Duration.ofMillis(Math.max(0, ttls.get(i).get())),
                                0));
            }
        }
        for (dev.lockwarden.LockInfo lock : locks(maxLocksScanned, read)) {
            String id = lock.holder().jvmId();
            ClientInfo c = byJvm.get(id);
            if (c == null) {
                c = new ClientInfo(
                        id,
                        lock.holder().application(),
                        lock.holder().host(),
                        lock.holder().pid(),
                        "",
                        "",
                        lock.holderAlive(),
                        Duration.ZERO,
                        0);
            }
            byJvm.put(
                    id,
                    new ClientInfo(
                            c.jvmId(),
                            c.application(),
                            c.host(),
                            c.pid(),
                            c.version(),
                            c.javaVersion(),
                            c.alive(),
                            c.heartbeatTtl(),
                            c.locksHeld() + 1));
        }
        List<ClientInfo> out = new ArrayList<>(byJvm.values());
        out.sort(Comparator.comparing(ClientInfo::alive).thenComparing(ClientInfo::application));
        return out;
    }

    /** Up to {@code max} held locks, by scanning lock keys of the first node. */
    List<dev.lockwarden.LockInfo> locks(
            int max, java.util.function.Function<List<String>, List<dev.lockwarden.LockInfo>> read) {
        RedisNodeClient node = nodes.get(0);
        List<dev.lockwarden.LockInfo> out = new ArrayList<>();
        for (UnifiedJedis target : node.scanTargets()) {
            List<String> names = scan(node, target, keys.lockPattern(""), max - out.size(), key -> {
                String name = keys.nameOf(key);
                return name != null && key.equals(keys.lock(name)) ? name : null;
            });
            for (int i = 0; i < names.size(); i += 500) {
                out.addAll(read.apply(names.subList(i, Math.min(names.size(), i + 500))));
            }
        }
        return out;
    }

    /** The newest {@code max} audit records, each with its seal when {@code signer} is not null. */
    List<AuditRecord> audit(int max, dev.lockwarden.AuditSigner signer) {
        LockStoreException failure = null;
        List<List<AuditRecord>> each = new ArrayList<>();
        for (RedisNodeClient node : nodes) { // Redlock: every node's stream, merged (a node may have missed one)
            try {
                each.add(auditOf(node, max, signer));
            } catch (LockStoreException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (each.isEmpty()) {
            throw failure;
        }
        return AuditSeals.merge(each, max);
    }

    private List<AuditRecord> auditOf(RedisNodeClient node, int max, dev.lockwarden.AuditSigner signer) {
        List<StreamEntry> entries = node.call(
                "read the audit log",
                () -> node.redis().xrevrange(KeySpace.AUDIT, (StreamEntryID) null, (StreamEntryID) null, max));
        List<AuditRecord> out = new ArrayList<>();
        Map<String, dev.lockwarden.store.JvmRecord> who = auditedJvms(node, entries);
        List<AuditRecord.Seal> seals = AuditSeals.of(entries, signer);
        for (StreamEntry e : entries) {
            Map<String, String> f = e.getFields();
            String holder = f.containsKey("holder.app") || !f.containsKey("holder.jvm")
                    ? f.getOrDefault("holder.app", "") + " @ " + f.getOrDefault("holder.host", "") + ", pid "
                            + f.getOrDefault("holder.pid", "?")
                    : describe(who.get(f.get("holder.jvm")));
            out.add(new AuditRecord(
                    e.getID().toString(),
                    Instant.ofEpochMilli(
                            LockReader.parseLong(f.get("at"), e.getID().getTime())),
                    f.getOrDefault("operator", ""),
                    f.getOrDefault("name", ""),
                    holder,
                    LockReader.parseLong(f.get("oldFence"), 0),
                    LockReader.parseLong(f.get("newFence"), 0),
                    seals.get(out.size())));
        }
        return out;
    }

    /**
     * An audit record whose force-release did not know the holder's application (it read no holder
     * first) carries only the holder's JVM id: who that JVM was comes from its
     * {@link dev.lockwarden.store.JvmRecord}, one pipelined read per distinct JVM.
     */
    private static Map<String, dev.lockwarden.store.JvmRecord> auditedJvms(
            RedisNodeClient node, List<StreamEntry> entries) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (StreamEntry e : entries) {
            String jvm = e.getFields().get("holder.jvm");
            if (jvm != null && !e.getFields().containsKey("holder.app")) {
                ids.add(jvm);
            }
        }
        Map<String, dev.lockwarden.store.JvmRecord> out = new java.util.HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        Map<String, redis.clients.jedis.Response<Map<String, String>>> records = new java.util.HashMap<>();
        node.call("read client records", () -> {
            records.clear();
            try (redis.clients.jedis.AbstractPipeline p = node.redis().pipelined()) {
                ids.forEach(id -> records.put(id, p.hgetAll(dev.lockwarden.store.JvmRecord.key(id))));
                p.sync();
            }
            return null;
        });
        records.forEach((id, r) -> out.put(id, dev.lockwarden.store.JvmRecord.of(r.get())));
        return out;
    }

    private static String describe(dev.lockwarden.store.JvmRecord r) {
        return r == null || r == dev.lockwarden.store.JvmRecord.UNKNOWN
                ? " @ , pid ?"
                : r.application() + " @ " + r.host() + ", pid " + r.pid();
    }

    /** Keys matching {@code pattern} (mapped, nulls dropped), at most {@code max}. */
    private static List<String> scan(
            RedisNodeClient node,
            UnifiedJedis target,
            String pattern,
            int max,
            java.util.function.Function<String, String> map) {
        List<String> out = new ArrayList<>();
        ScanParams params = new ScanParams().match(pattern).count(SCAN_COUNT);
        String cursor = "0";
        do {
            String from = cursor;
            ScanResult<String> r = node.call("scan " + pattern, () -> target.scan(from, params));
            for (String k : r.getResult()) {
                String m = map.apply(k);
                if (m != null && out.size() < max) {
                    out.add(m);
                }
            }
            cursor = r.getCursor();
        } while (!"0".equals(cursor) && out.size() < max);
        return out;
    }
}
