package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import redis.clients.jedis.args.Rawable;

/** release.lua on one node: its keys and arguments, encoded once per call, and its reply. */
final class ReleaseScript {
    private static final LuaScript SCRIPT = LuaScript.load(ReleaseScript.class, "release.lua");
    private static final Encoded HISTORY_MAX_LEN = Encoded.of(KeySpace.HISTORY_MAX_LEN);
    private static final Encoded NO_HISTORY = Encoded.of(0);
    private static final Encoded NO_KEEP = Encoded.of(0);
    private static final Encoded QUIET = Encoded.of("");
    private static final Encoded ALWAYS = Encoded.of(1);
    private static final Encoded IF_MARKED = Encoded.of(0);

    private final KeySpace keys;
    /** Retention (ms, as text) of the lock's history stream written by every release; null = releases record nothing. */
    private volatile String cycleRetention;

    ReleaseScript(KeySpace keys) {
        this.keys = keys;
    }

    /** See {@link RedisNodeClient#recordCycles(long)}. */
    void recordCycles(long retentionMillis) {
        this.cycleRetention = retentionMillis > 0 ? Long.toString(retentionMillis) : null;
    }

    /** Whether a release sends its release message. */
    enum Wake {
        /** Never (the cleanup of a failed Redlock attempt: nobody held the lock). */
        QUIET,
        /** Only if a waiter marked the lock (acquire.lua): no message when nobody waits. */
        IF_WAITED,
        /** Always (this JVM hands the lock to its own waiter, who may not have marked it; shutdown). */
        ALWAYS
    }

    /**
     * Keys: lock, the waiter mark and, when this node records cycles, the lock's history stream.
     * Arguments: token, channel, keep, announce and, with history, its length, the name and its retention. A
     * quiet release records no cycle: nobody held the lock; {@code keepMillis > 0} keeps the lock that long
     * instead (holdAtLeast) and sends no message.
     */
    ScriptCall call(Lease lease, Wake wake, long keepMillis) {
        byte[] lock = keys.lock(lease.name()).getBytes(StandardCharsets.UTF_8);
        Rawable waiters = Encoded.suffixed(lock, KeySpace.WAITERS_SUFFIX);
        Rawable token = Encoded.of(lease.token());
        boolean wakes = wake != Wake.QUIET;
        Rawable channel = wakes && keepMillis <= 0 ? Encoded.suffixed(lock, KeySpace.RELEASED_SUFFIX) : QUIET;
        Rawable keep = keepMillis > 0 ? Encoded.of(keepMillis) : NO_KEEP;
        Rawable announce = wake == Wake.ALWAYS ? ALWAYS : IF_MARKED;
        String retention = cycleRetention;
        if (retention == null) {
            return new ScriptCall(
                    SCRIPT, new Rawable[] {Encoded.wrap(lock), waiters}, new Rawable[] {token, channel, keep, announce
                    });
        }
        return new ScriptCall(
                SCRIPT,
                new Rawable[] {Encoded.wrap(lock), waiters, Encoded.suffixed(lock, KeySpace.HISTORY_SUFFIX)},
                new Rawable[] {
                    token,
                    channel,
                    keep,
                    announce,
                    wakes ? HISTORY_MAX_LEN : NO_HISTORY,
                    Encoded.of(lease.name()),
                    Encoded.of(retention)
                });
    }

    /** True if the lock was still ours. */
    static boolean released(Object reply) {
        return Long.valueOf(1L).equals(reply);
    }
}
