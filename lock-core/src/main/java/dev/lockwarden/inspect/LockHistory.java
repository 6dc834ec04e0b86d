package dev.lockwarden.inspect;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.LockHolder;
import dev.lockwarden.store.RedisNodeClient;
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
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * A lock's recent history as {@link LockEvent}s, newest first: the current holder's acquire and the
 * lock's own capped history stream ({@code lock:{name}:history}: its cycles, force-releases, lost
 * locks and late releases, never crowded out by other locks). One {@code XREVRANGE} of at most
 * {@value #RETURNED} entries per read; the global {@code lockwarden:events} stream is not scanned.
 * <p>
 * A cycle is one entry, written at release by release.lua: its fence and packed holder
 * ({@link LockHolder}: JVM, thread, source, method, acquired-at). It is shown as two events,
 * {@code acquire} at the acquired-at time and {@code release} (or {@code release-held}) at the
 * entry's time, each with the holder's fields and the application, host and pid of its JVM
 * ({@link JvmRecord}); a lost entry with its holder likewise shows the acquisition it ended.
 */
final class LockHistory {
    static final int RETURNED = 100;

    private LockHistory() {}

    static List<LockEvent> read(RedisNodeClient node, String name, Optional<LockInfo> current) {
        List<StreamEntry> history = node.call(
                "read the history of '" + name + "'",
                () -> node.redis()
                        .xrevrange(
                                node.keySpace().history(name), (StreamEntryID) null, (StreamEntryID) null, RETURNED));
        Map<String, JvmRecord> who = jvms(node, history);
        List<LockEvent> out = new ArrayList<>();
        current.ifPresent(i -> out.add(heldNow(i)));
        for (StreamEntry e : history) {
            Map<String, String> f = e.getFields();
            String type = f.getOrDefault("type", "force-release");
            long entryAt = e.getID().getTime();
            if ((type.startsWith("release") || "lost".equals(type)) && f.containsKey(LockHolder.PACKED)) {
                // a cycle that ended (released, or lost with its holder): its end and its acquire
                LockHolder h = LockHolder.decode(f);
                Map<String, String> fields = holderFields(
                        f.getOrDefault(LockHolder.FENCE, ""), h, who.getOrDefault(h.jvmId(), JvmRecord.UNKNOWN));
                long acquiredAt = Math.min(h.acquiredAtMillis(), entryAt); // two clocks: keep the order
                Map<String, String> end = new LinkedHashMap<>(fields);
                if (f.containsKey("reason")) {
                    end.put("reason", f.get("reason"));
                }
                out.add(event(e.getID() + "-r", type, name, entryAt, end));
                out.add(event(e.getID() + "-a", "acquire", name, acquiredAt, fields));
            } else {
                Map<String, String> g = new HashMap<>(f);
                g.putIfAbsent("name", name);
                if ("force-release".equals(type)) {
                    g.put("fence", g.getOrDefault("oldFence", ""));
                }
                out.add(event(e.getID().toString(), type, name, LockReader.parseLong(g.get("at"), entryAt), g));
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
            JvmRecord r = LockReader.Jvm.of(beats.get(id).get(), records.get(id).get())
                    .who();
            if (r != JvmRecord.UNKNOWN) {
                out.put(id, r);
            }
        }
        return out;
    }
}
