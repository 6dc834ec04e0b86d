package dev.lockwarden.inspect;

import dev.lockwarden.HolderInfo;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.AgreedFence;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.LockValue;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.store.Sha1;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;

/**
 * Reads the state of named locks from every node: one pipelined round trip per node for the lock's
 * value (token, fence and holder: {@link LockValue}) and TTL, then one for the holders' heartbeats. A lock counts as held when a majority
 * of the nodes (the only node, for a single node or a cluster) hold the same token; {@link LockInfo#nodes()}
 * names them (on a cluster: the master that owns the lock's slot). Nodes that do not answer are skipped while a majority still can.
 * <p>
 * Over 200 lines because the majority rule, the packed-holder decoding and the join with the holders'
 * per-JVM records must agree for one lock and for a page of locks; keeping them in one reader is what
 * makes the dashboard's rows and a single lock's detail show the same holder.
 */
final class LockReader {
    private final RedisDeployment redis;
    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;
    private final int quorum;

    LockReader(RedisDeployment redis) {
        this.redis = redis;
        this.nodes = redis.nodes();
        this.keys = redis.keySpace();
        this.quorum = redis.quorum();
    }

    /** One node's view of one lock. */
    private record View(int node, String token, Map<String, String> info, long ttl) {}

    List<LockInfo> read(List<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        List<List<View>> perName = new ArrayList<>();
        names.forEach(n -> perName.add(new ArrayList<>()));
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            try {
                List<View> views = readNode(i, names);
                for (int k = 0; k < names.size(); k++) {
                    if (views.get(k).token() != null) {
                        perName.get(k).add(views.get(k));
                    }
                }
            } catch (LockStoreException e) {
                failures.add(e.getMessage());
            }
        }
        redis.requireQuorum("read locks", failures);
        List<String> heldNames = new ArrayList<>();
        List<List<View>> held = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            List<View> majority = majority(perName.get(k));
            if (majority != null) {
                heldNames.add(names.get(k));
                held.add(majority);
            }
        }
        return withHeartbeats(heldNames, held);
    }

    /**
     * One node's view of each name: value and TTL in one pipelined round trip (holder and fence are in
     * the lock's value, {@link LockValue}); a second one only for locks of the older layout, whose
     * holder is in the {@code :info} hash.
     */
    private List<View> readNode(int i, List<String> names) {
        RedisNodeClient node = nodes.get(i);
        List<Response<String>> values = new ArrayList<>(names.size());
        List<Response<Long>> ttls = new ArrayList<>(names.size());
        node.call("read lock info", () -> {
            values.clear();
            ttls.clear();
            try (AbstractPipeline p = node.redis().pipelined()) {
                for (String n : names) {
                    String lock = keys.lock(n);
                    values.add(p.get(lock));
                    ttls.add(p.pttl(lock));
                }
                p.sync();
            }
            return null;
        });
        List<LockValue> parsed = new ArrayList<>(names.size());
        List<Integer> older = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            LockValue v = LockValue.parse(values.get(k).get());
            parsed.add(v);
            if (v != null && v.olderLayout()) {
                older.add(k);
            }
        }
        Map<Integer, Response<Map<String, String>>> infos = new LinkedHashMap<>();
        if (!older.isEmpty()) {
            node.call("read lock info", () -> {
                infos.clear();
                try (AbstractPipeline p = node.redis().pipelined()) {
                    for (int k : older) {
                        infos.put(k, p.hgetAll(keys.info(names.get(k))));
                    }
                    p.sync();
                }
                return null;
            });
        }
        List<View> out = new ArrayList<>(names.size());
        for (int k = 0; k < names.size(); k++) {
            LockValue v = parsed.get(k);
            Map<String, String> info =
                    v == null ? Map.of() : v.olderLayout() ? infos.get(k).get() : v.asInfo();
            out.add(new View(i, v == null ? null : v.token(), info, ttls.get(k).get()));
        }
        return out;
    }

    /** The views sharing the most common token, if a majority of all nodes hold it. */
    private List<View> majority(List<View> views) {
        Map<String, List<View>> byToken = new LinkedHashMap<>();
        for (View v : views) {
            byToken.computeIfAbsent(v.token(), t -> new ArrayList<>()).add(v);
        }
        for (List<View> group : byToken.values()) {
            if (group.size() >= quorum) {
                return group;
            }
        }
        return null;
    }

    /**
     * Joins each lock with its holder JVM on the first node holding the lock: the heartbeat (alive, and
     * application@host:pid while it lives) and the longer-lived {@link JvmRecord} (who it was, after it
     * died). One pipelined round trip per node, one read per distinct JVM, not per lock.
     */
    private List<LockInfo> withHeartbeats(List<String> names, List<List<View>> held) {
        List<LockHolder> holders = new ArrayList<>(held.size());
        for (List<View> views : held) {
            holders.add(LockHolder.decode(views.get(0).info()));
        }
        List<Jvm> jvms = new ArrayList<>(java.util.Collections.nCopies(held.size(), null));
        for (int i = 0; i < nodes.size(); i++) {
            int nodeIndex = i;
            Map<String, Integer> firstOf = new LinkedHashMap<>();
            for (int k = 0; k < held.size(); k++) {
                if (held.get(k).get(0).node() == nodeIndex) {
                    firstOf.putIfAbsent(holders.get(k).jvmId(), k);
                }
            }
            if (firstOf.isEmpty()) {
                continue;
            }
            RedisNodeClient node = nodes.get(nodeIndex);
            Map<String, Response<String>> beats = new LinkedHashMap<>();
            Map<String, Response<Map<String, String>>> records = new LinkedHashMap<>();
            node.call("read heartbeats", () -> {
                beats.clear();
                records.clear();
                try (AbstractPipeline p = node.redis().pipelined()) {
                    for (String jvm : firstOf.keySet()) {
                        String id = jvm.isEmpty() ? "-" : jvm;
                        beats.put(jvm, p.get(KeySpace.jvmKey(id)));
                        records.put(jvm, p.hgetAll(JvmRecord.key(id)));
                    }
                    p.sync();
                }
                return null;
            });
            Map<String, Jvm> byId = new LinkedHashMap<>();
            beats.forEach((jvm, beat) ->
                    byId.put(jvm, Jvm.of(beat.get(), records.get(jvm).get())));
            for (int k = 0; k < held.size(); k++) {
                if (held.get(k).get(0).node() == nodeIndex) {
                    jvms.set(k, byId.get(holders.get(k).jvmId()));
                }
            }
        }
        List<LockInfo> out = new ArrayList<>(names.size());
        for (int k = 0; k < names.size(); k++) {
            out.add(toInfo(names.get(k), held.get(k), holders.get(k), jvms.get(k)));
        }
        return out;
    }

    /**
     * A holder JVM as the reader found it. Who it is comes from its heartbeat while alive, else from
     * its {@link JvmRecord}, else (a lock written by an older client) from the lock's own info hash.
     */
    record Jvm(boolean alive, JvmRecord who) {
        static Jvm of(String heartbeat, Map<String, String> record) {
            if (heartbeat != null) {
                return new Jvm(true, fromHeartbeat(heartbeat, JvmRecord.of(record)));
            }
            return new Jvm(false, JvmRecord.of(record));
        }

        /** First line of the heartbeat value: application@host:pid (see Heartbeat). */
        private static JvmRecord fromHeartbeat(String value, JvmRecord fallback) {
            String v = value.lines().findFirst().orElse("");
            int at = v.lastIndexOf('@');
            int colon = v.lastIndexOf(':');
            if (at < 0 || colon < at) {
                return fallback;
            }
            return new JvmRecord(v.substring(0, at), v.substring(at + 1, colon), parseLong(v.substring(colon + 1), 0));
        }
    }

    private LockInfo toInfo(String name, List<View> views, LockHolder h, Jvm jvm) {
        Map<String, String> f = views.get(0).info();
        long ttl = Long.MAX_VALUE;
        List<Long> fences = new ArrayList<>(views.size());
        List<String> where = new ArrayList<>();
        for (View v : views) {
            ttl = Math.min(ttl, v.ttl());
            fences.add(parseLong(v.info().get(LockHolder.FENCE), 0));
            where.add(nodeOf(v.node(), name));
        }
        long fence = AgreedFence.of(fences);
        JvmRecord who = jvm.who() == JvmRecord.UNKNOWN ? JvmRecord.of(f) : jvm.who(); // older clients: per lock
        HolderInfo holder = new HolderInfo(who.application(), who.host(), who.pid(), h.thread(), h.jvmId());
        return new LockInfo(
                name,
                holder,
                h.source(),
                h.method(),
                Instant.ofEpochMilli(h.acquiredAtMillis()),
                Duration.ofMillis(Math.max(ttl, 0)),
                fence,
                where,
                jvm.alive(),
                Sha1.hex(views.get(0).token()));
    }

    /** Where the lock is: the node's address, or on a Cluster the master that owns the lock's slot. */
    private String nodeOf(int node, String name) {
        RedisNodeClient client = nodes.get(node);
        return client.masterOf(keys.lock(name));
    }

    static long parseLong(String s, long fallback) {
        try {
            return s == null ? fallback : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
