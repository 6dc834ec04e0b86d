package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.args.Rawable;

/**
 * refresh.lua (one lock) and its batch form refresh-many.lua (up to {@value #CHUNK} locks of one node per
 * call): their keys and arguments, and their replies.
 */
final class RefreshScript {
    private static final LuaScript ONE = LuaScript.load(RefreshScript.class, "refresh.lua");
    private static final LuaScript MANY = LuaScript.load(RefreshScript.class, "refresh-many.lua");
    /** Locks per refresh-many call: bounded so one call never blocks Redis for long. */
    static final int CHUNK = 200;

    private final KeySpace keys;

    RefreshScript(KeySpace keys) {
        this.keys = keys;
    }

    KeySpace keySpace() {
        return keys;
    }

    /** Keys lock, info; arguments token, ttl (refresh.lua). */
    ScriptCall call(Lease lease) {
        return calls(List.of(lease));
    }

    /**
     * The calls refreshing {@code leases}: chunks of {@value #CHUNK} locks per script call, or one call per
     * lock where one script may touch one hash slot only (Redis Cluster).
     */
    List<List<Lease>> chunks(List<Lease> leases, boolean singleSlotOnly) {
        int chunk = singleSlotOnly ? 1 : CHUNK;
        List<List<Lease>> chunks = new ArrayList<>();
        for (int i = 0; i < leases.size(); i += chunk) {
            chunks.add(leases.subList(i, Math.min(leases.size(), i + chunk)));
        }
        return chunks;
    }

    /** One script call for a chunk: lock, info | token, ttl of each lease (refresh.lua for one, else refresh-many.lua). */
    ScriptCall calls(List<Lease> chunk) {
        Rawable[] k = new Rawable[chunk.size() * 2];
        Rawable[] a = new Rawable[chunk.size() * 2];
        for (int i = 0; i < chunk.size(); i++) {
            Lease l = chunk.get(i);
            k[2 * i] = Encoded.of(keys.lock(l.name()));
            k[2 * i + 1] = Encoded.of(keys.info(l.name()));
            a[2 * i] = Encoded.of(l.token());
            a[2 * i + 1] = Encoded.of(Long.toString(l.ttlMillis()));
        }
        return new ScriptCall(chunk.size() == 1 ? ONE : MANY, k, a);
    }

    /** True if the one lock is still ours. */
    static boolean extended(Object reply) {
        return Long.valueOf(1L).equals(reply);
    }

    /** Copies a chunk's reply (one 1/0, or a list of them) into {@code ours} from {@code at}; the next index. */
    static int extended(Object reply, boolean[] ours, int at) {
        if (reply instanceof List<?> many) {
            for (Object one : many) {
                ours[at++] = extended(one);
            }
        } else {
            ours[at++] = extended(reply);
        }
        return at;
    }
}
