package dev.lockwarden.inspect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * A lock's recent history as {@link LockEvent}s, newest first: the current holder's acquire, the
 * lock's own capped history stream ({@code lock:{name}:history}: force-releases and lost locks,
 * never crowded out by other locks), and the last entries of the global {@code lockwarden:events}
 * stream that name it.
 * <p>
 * A cycle is one entry of the global stream, written at release (by release.lua, or by the client on
 * Redis Cluster): its fence and packed holder ({@link LockHolder}: JVM, thread, source, method,
 * acquired-at). It is shown as two events, {@code acquire} at the acquired-at time and
 * {@code release} (or {@code release-held}) at the entry's time, each with the holder's fields and
 * the application, host and pid of its JVM ({@link JvmRecord}). Entries of older clients (separate
 * acquire and release events) are shown as they are.
 */
final class LockHistory {
    static final int RETURNED = 100;
    private static final int GLOBAL_SCANNED = 2_000;

    private LockHistory() {
    }

    static List<LockEvent> read(RedisNodeClient node, String name, Optional<LockInfo> current) {
        List<StreamEntry> history = node.call("read the history of '" + name + "'", () ->
                node.redis().xrevrange(node.historyKey(name), (StreamEntryID) null, (StreamEntryID) null, RETURNED));
        List<StreamEntry> global = node.call("read events", () ->
                node.redis().xrevrange(KeySpace.EVENTS, (StreamEntryID) null, (StreamEntryID) null, GLOBAL_SCANNED));
        List<StreamEntry> mine = new ArrayList<>();
        for (StreamEntry e : global) {
            if (name.equals(e.getFields().get("name")) && mine.size() < RETURNED) {
                mine.add(e);
            }
        }
        Map<String, JvmRecord> who = jvms(node, mine);
        List<LockEvent> out = new ArrayList<>();
        current.ifPresent(i -> out.add(heldNow(i)));
        Set<String> seen = new HashSet<>();
        for (StreamEntry e : history) {
            Map<String, String> f = new HashMap<>(e.getFields());
            f.putIfAbsent("name", name);
            String type = f.getOrDefault("type", "force-release");
            if ("force-release".equals(type)) {
                f.put("fence", f.getOrDefault("oldFence", ""));
            }
            seen.add(type + "@" + f.getOrDefault("at", ""));
            out.add(event(e.getID().toString(), type, name, LockReader.parseLong(f.get("at"), e.getID().getTime()), f));
        }
        for (StreamEntry e : mine) {
            Map<String, String> f = e.getFields();
            String type = f.getOrDefault("type", "?");
            long entryAt = e.getID().getTime();
            boolean lost = "lost".equals(type);
            if ((type.startsWith("release") || lost) && f.containsKey(LockHolder.PACKED)) {
                // a cycle that ended (released, or lost with its holder): its acquire and its end
                LockHolder h = LockHolder.decode(f);
                Map<String, String> fields = holderFields(f.getOrDefault(LockHolder.FENCE, ""), h,
                        who.getOrDefault(h.jvmId(), JvmRecord.UNKNOWN));
                long acquiredAt = Math.min(h.acquiredAtMillis(), entryAt); // two clocks: keep the order
                if (!(lost && seen.contains(type + "@" + f.getOrDefault("at", "")))) { // else listed from the lock's history
                    Map<String, String> end = new LinkedHashMap<>(fields);
                    if (f.containsKey("reason")) {
                        end.put("reason", f.get("reason"));
                    }
                    out.add(event(e.getID() + "-r", type, name, entryAt, end));
                }
                out.add(event(e.getID() + "-a", "acquire", name, acquiredAt, fields));
            } else if (!seen.contains(type + "@" + f.getOrDefault("at", ""))) { // else listed from the lock's history
                out.add(event(e.getID().toString(), type, name, LockReader.parseLong(f.get("at"), entryAt), f));
            }
        }
        out.sort(Comparator.comparing(LockEvent::at).reversed()); // stable: a release stays before its acquire
        return out.size() > RETURNED ? List.copyOf(out.subList(0, RETURNED)) : out;
    }

    /** The current holder's acquire (its cycle is in the history only once it ends). */
    private static LockEvent heldNow(LockInfo i) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("fence", Long.toString(i.fencingToken()));
        f.put("app", i.holder().application());
        f.put("host", i.holder().host());
        f.put("pid", Long.toString(i.holder().pid()));
        f.put("jvm", i.holder().jvmId());
        f.put("thread", i.holder().thread());
        f.put("source", i.source().name());
        f.put("method", i.method());
        f.put("acquiredAt", Long.toString(i.acquiredAt().toEpochMilli()));
        return event("held", "acquire", i.name(), i.acquiredAt().toEpochMilli(), f);
    }

    private static Map<String, String> holderFields(String fence, LockHolder h, JvmRecord jvm) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("fence", fence);
        f.put("app", jvm.application());
        f.put("host", jvm.host());
        f.put("pid", Long.toString(jvm.pid()));
        f.put("jvm", h.jvmId());
        f.put("thread", h.thread());
        f.put("source", h.source().name());
        f.put("method", h.method());
        f.put("acquiredAt", Long.toString(h.acquiredAtMillis()));
        return f;
    }

    private static LockEvent event(String id, String type, String name, long at, Map<String, String> fields) {
        return new LockEvent(id, type, name, Instant.ofEpochMilli(at), fields);
    }

    /** Who each JVM named in the cycle entries is: heartbeat while alive, else its record (one round trip). */
    private static Map<String, JvmRecord> jvms(RedisNodeClient node, List<StreamEntry> entries) {
        Set<String> ids = new HashSet<>();
        for (StreamEntry e : entries) {
            if (e.getFields().containsKey(LockHolder.PACKED)) {
                String jvm = LockHolder.decode(e.getFields()).jvmId();
                if (!jvm.isEmpty()) {
                    ids.add(jvm);
                }
            }
        }
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<String, Response<String>> beats = new HashMap<>();
        Map<String, Response<Map<String, String>>> records = new HashMap<>();
        node.call("read heartbeats", () -> {
            beats.clear();
            records.clear();
            try (AbstractPipeline p = node.redis().pipelined()) {
                for (String id : ids) {
                    beats.put(id, p.get(KeySpace.jvmKey(id)));
                    records.put(id, p.hgetAll(JvmRecord.key(id)));
                }
                p.sync();
            }
            return null;
        });
        Map<String, JvmRecord> out = new HashMap<>();
        for (String id : ids) {
            JvmRecord r = LockReader.Jvm.of(beats.get(id).get(), records.get(id).get()).who();
            if (r != JvmRecord.UNKNOWN) {
                out.put(id, r);
            }
        }
        return out;
    }
}
