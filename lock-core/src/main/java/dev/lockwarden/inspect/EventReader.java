package dev.lockwarden.inspect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * A lock's events: its own history (force-releases, never crowded out by other locks) merged with
 * the global events stream, read from the first node that answers (every client writes its events
 * to its first node).
 */
final class EventReader {
    private static final int EVENTS_SCANNED = 2_000;
    private static final int EVENTS_RETURNED = 100;

    private final List<RedisNodeClient> nodes;

    EventReader(List<RedisNodeClient> nodes) {
        this.nodes = nodes;
    }

    List<LockEvent> events(String name) {
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

    private static List<LockEvent> events(RedisNodeClient node, String name) {
        List<StreamEntry> history = node.call("read the history of '" + name + "'", () ->
                node.redis().xrevrange(node.historyKey(name), (StreamEntryID) null, (StreamEntryID) null, EVENTS_RETURNED));
        List<StreamEntry> entries = node.call("read events", () ->
                node.redis().xrevrange(KeySpace.EVENTS, (StreamEntryID) null, (StreamEntryID) null, EVENTS_SCANNED));
        List<LockEvent> out = new ArrayList<>();
        Set<String> forceReleasesAt = new HashSet<>();
        for (StreamEntry e : history) {
            Map<String, String> f = new HashMap<>(e.getFields());
            f.putIfAbsent("name", name);
            f.put("fence", f.getOrDefault("oldFence", ""));
            forceReleasesAt.add(f.getOrDefault("at", ""));
            out.add(new LockEvent(e.getID().toString(), f.getOrDefault("type", "force-release"), name,
                    Instant.ofEpochMilli(LockReader.parseLong(f.get("at"), e.getID().getTime())), f));
        }
        for (StreamEntry e : entries) {
            if ("force-release".equals(e.getFields().get("type")) && forceReleasesAt.contains(e.getFields().get("at"))) {
                continue; // already listed from the lock's history
            }
            Map<String, String> f = e.getFields();
            if (name.equals(f.get("name"))) {
                long at = LockReader.parseLong(f.get("at"), e.getID().getTime());
                out.add(new LockEvent(e.getID().toString(), f.getOrDefault("type", "?"), name, Instant.ofEpochMilli(at), f));
                if (out.size() == EVENTS_RETURNED) {
                    break;
                }
            }
        }
        out.sort(Comparator.comparing(LockEvent::at).reversed());
        return out;
    }
}
