package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.args.Rawable;

/** acquire.lua on one node: its keys and arguments, encoded once per call, and its reply. */
final class AcquireScript {
    static final LuaScript SCRIPT = LuaScript.load(AcquireScript.class, "acquire.lua");
    private static final Encoded STORE_FLOOR = Encoded.of(1);
    private static final Encoded NO_FLOOR = Encoded.of(0);

    private final KeySpace keys;
    private final Encoded fenceRetention;
    /** The node's fence epoch key (Redlock phase 1 only; see acquire.lua). */
    private final Encoded fenceEpoch;
    /** The last TTL argument encoded (almost every lock of an application has the same TTL). */
    private volatile TtlArg lastTtl = new TtlArg(-1, Encoded.of(-1));

    AcquireScript(KeySpace keys, long fenceRetentionMillis) {
        this.keys = keys;
        this.fenceEpoch = Encoded.of(keys.fenceEpoch());
        this.fenceRetention = Encoded.of(fenceRetentionMillis);
    }

    /**
     * Keys lock, fence, with {@code storeFloor = false} the node's fence epoch (Redlock nodes only: it is not
     * in the lock's Cluster slot), and for a {@code waiter} (a call that will wait for the release message) the
     * waiter mark its busy answer sets; arguments token, ttl, retention, floor, holder. {@code storeFloor = false}
     * (Redlock phase 1) leaves a counter below the clock floor as it is and says so in
     * {@link AcquireResult#counterBehind()}.
     */
    ScriptCall call(Lease lease, LockHolder holder, boolean storeFloor, boolean waiter) {
        byte[] lock = keys.lock(lease.name()).getBytes(StandardCharsets.UTF_8);
        Rawable[] k = new Rawable[2 + (storeFloor ? 0 : 1) + (waiter ? 1 : 0)];
        k[0] = Encoded.wrap(lock);
        k[1] = Encoded.suffixed(lock, KeySpace.FENCE_SUFFIX);
        if (!storeFloor) {
            k[2] = fenceEpoch;
        }
        if (waiter) {
            k[k.length - 1] = Encoded.suffixed(lock, KeySpace.WAITERS_SUFFIX);
        }
        Rawable[] a = {
            Encoded.of(lease.token()),
            ttlArg(lease.ttlMillis()),
            fenceRetention,
            storeFloor ? STORE_FLOOR : NO_FLOOR,
            Encoded.wrap(holder.encodeUtf8())
        };
        return new ScriptCall(SCRIPT, k, a);
    }

    private Encoded ttlArg(long ttlMillis) {
        TtlArg last = lastTtl;
        if (last.millis() != ttlMillis) {
            last = new TtlArg(ttlMillis, Encoded.of(Long.toString(ttlMillis)));
            lastTtl = last;
        }
        return last.raw();
    }

    private record TtlArg(long millis, Encoded raw) {}

    /** The reply: the fence, -1 (a key without TTL), -2 - the holder's PTTL, or {1, fence, above-counter}. */
    AcquireResult reply(Lease lease, Object raw, Object what, NodeCalls node) {
        if (raw instanceof Long n) { // the hot paths (see acquire.lua)
            if (n > 0) {
                return AcquireResult.acquired(n, lease.ttlMillis());
            }
            if (n == -1L) {
                // Lockwarden always sets a TTL: a lock key without one was written by someone else
                throw new NodeException(
                        node.address(),
                        "Redis " + node.address() + ": key " + keys.lock(lease.name())
                                + " exists without a TTL (" + what
                                + "), so it was not written by Lockwarden and would block the"
                                + " lock forever. Delete it (or use another key prefix).");
            }
            if (n < -1L) {
                return AcquireResult.busy(-2 - n);
            }
        }
        List<?> reply = node.list(what, raw, 3);
        if (node.integer(what, reply.get(0)) != 1L) {
            throw node.unexpected(what, reply);
        }
        long fence = node.integer(what, reply.get(1));
        return Long.valueOf(1L).equals(reply.get(2))
                ? AcquireResult.acquiredAboveCounter(fence, lease.ttlMillis())
                : AcquireResult.acquired(fence, lease.ttlMillis());
    }
}
