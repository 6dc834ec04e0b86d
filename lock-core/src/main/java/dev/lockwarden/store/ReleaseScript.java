package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import redis.clients.jedis.args.Rawable;

/** release.lua on one node: its keys and arguments, encoded once per call, and its reply. */
final class ReleaseScript {
    static final LuaScript SCRIPT = LuaScript.load(ReleaseScript.class, "release.lua");
    private static final Encoded HISTORY_MAX_LEN = Encoded.of(KeySpace.HISTORY_MAX_LEN);
    // how to release (release.lua's ARGV[2]); a keep period goes as its ms instead
    private static final Encoded QUIET = Encoded.of("q");
    private static final Encoded ALWAYS = Encoded.of("a");
    private static final Encoded IF_MARKED = Encoded.of("m");

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
     * Keys: lock, the waiter mark and, when this node records cycles, the lock's history stream. Arguments: token,
     * how ({@code q}uiet, {@code m}essage if a waiter marked the lock, {@code a}lways, or the ms to keep the lock)
     * and, with history, its length, the name and its retention. A quiet release deletes and records no cycle:
     * nobody held the lock; {@code keepMillis > 0} keeps the lock that long instead (holdAtLeast) and sends no
     * message. The release channel is built in the script (the lock key + {@link KeySpace#RELEASED_SUFFIX}).
     */
    ScriptCall call(Lease lease, Wake wake, long keepMillis) {
        byte[] lock = keys.lock(lease.name()).getBytes(StandardCharsets.UTF_8);
        Rawable waiters = Encoded.suffixed(lock, KeySpace.WAITERS_SUFFIX);
        Rawable token = Encoded.of(lease.token());
        Rawable how = wake == Wake.QUIET
                ? QUIET
                : keepMillis > 0 ? Encoded.of(keepMillis) : wake == Wake.ALWAYS ? ALWAYS : IF_MARKED;
        String retention = cycleRetention;
        if (retention == null || wake == Wake.QUIET) {
            return new ScriptCall(SCRIPT, new Rawable[] {Encoded.wrap(lock), waiters}, new Rawable[] {token, how});
        }
        return new ScriptCall(
                SCRIPT,
                new Rawable[] {Encoded.wrap(lock), waiters, Encoded.suffixed(lock, KeySpace.HISTORY_SUFFIX)},
                new Rawable[] {token, how, HISTORY_MAX_LEN, Encoded.of(lease.name()), Encoded.of(retention)});
    }

    /** True if the lock was still ours. */
    static boolean released(Object reply) {
        return Long.valueOf(1L).equals(reply);
    }
}
