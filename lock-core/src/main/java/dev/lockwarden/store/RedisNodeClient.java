package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The lock scripts run against one Redis deployment: a single node (or, on Redis Cluster, the
 * cluster client, which routes each script by its hash tag). Every Jedis failure becomes a
 * {@link NodeException} naming the node (a timeout: a {@link NodeTimeoutException}), and so does
 * every reply this node gives that Lockwarden cannot use; a full local pool is a
 * {@link dev.lockwarden.LocalPoolBusyException}, which is neither.
 * <p>
 * Over 200 lines because it is the single place where every script runs and every Jedis failure is mapped to a typed error naming the node.
 */
public class RedisNodeClient implements AutoCloseable {
    private static final LuaScript ACQUIRE = LuaScript.load(RedisNodeClient.class, "acquire.lua");
    private static final LuaScript RELEASE = LuaScript.load(RedisNodeClient.class, "release.lua");
    private static final LuaScript REFRESH = LuaScript.load(RedisNodeClient.class, "refresh.lua");
    private static final LuaScript FORCE_RELEASE = LuaScript.load(RedisNodeClient.class, "force-release.lua");
    private static final LuaScript REFRESH_MANY = LuaScript.load(RedisNodeClient.class, "refresh-many.lua");
    /** Locks per refresh-many call: bounded so one call never blocks Redis for long. */
    static final int REFRESH_CHUNK = 200;
    private static final LuaScript RAISE_FENCE = LuaScript.load(RedisNodeClient.class, "raise-fence.lua");
    /** Suffix of the lock's own history stream key. */
    public static final String HISTORY_SUFFIX = ":history";
    /** Entries a lock's history keeps ({@code MAXLEN ~}: Redis trims whole stream nodes, so up to ~100 more). */
    public static final long HISTORY_MAX_LEN = 100;
    private static final Encoded HISTORY_MAX_LEN_RAW = Encoded.of(HISTORY_MAX_LEN);
    private static final Encoded NO_HISTORY = Encoded.of(0);

    private final UnifiedJedis redis;
    private final String address;
    private final KeySpace keys;
    private final String fenceRetentionMillis;
    /** Encoded once for the hot paths (acquire, release). */
    private final Encoded fenceRetentionRaw;
    /** The last TTL argument encoded (almost every lock of an application has the same TTL). */
    private volatile TtlArg lastTtl = new TtlArg(-1, Encoded.of(-1));
    private static final Encoded STORE_FLOOR = Encoded.of(1);
    private static final Encoded NO_FLOOR = Encoded.of(0);
    private static final Encoded NO_KEEP = Encoded.of(0);
    private static final Encoded QUIET = Encoded.of("");
    /** Retention (ms, as text) of the lock's history stream written by every release; null = releases record nothing ({@link #recordCycles}). */
    private volatile String cycleRetention;
    /** Null = calls go straight to the client (which then must not run out of connections). */
    private final ConnectionGate gate;
    /** The connection acquire and release share (null = they use the client's pool like every other call). */
    private final SharedConnection shared;

    public RedisNodeClient(UnifiedJedis redis, String address, KeySpace keys, long fenceRetentionMillis) {
        this(redis, address, keys, fenceRetentionMillis, null);
    }

    /**
     * @param conn the pool size and timeout: at most {@code conn.maxConnections()} calls go to the
     *             client at once, the others wait their turn (see {@link ConnectionGate})
     */
    public RedisNodeClient(UnifiedJedis redis, String address, KeySpace keys, long fenceRetentionMillis,
                           ConnectionSettings conn) {
        this(redis, address, keys, fenceRetentionMillis, conn, null);
    }

    /**
     * @param shared the one connection that acquire and release share (see {@link SharedConnection}); null =
     *               they take a pooled connection each. Closed with this client.
     */
    RedisNodeClient(UnifiedJedis redis, String address, KeySpace keys, long fenceRetentionMillis,
                    ConnectionSettings conn, SharedConnection shared) {
        this.shared = shared;
        this.redis = redis;
        this.address = address;
        this.keys = keys;
        this.fenceRetentionMillis = Long.toString(fenceRetentionMillis);
        this.fenceRetentionRaw = Encoded.of(this.fenceRetentionMillis);
        this.gate = conn == null ? null : new ConnectionGate(conn.maxConnections(), conn.timeout().toMillis(), address);
    }

    /** One acquire attempt that stores its clock-floored fence in the counter (see acquire.lua). */
    public AcquireResult acquire(Lease lease, LockHolder holder) {
        return acquire(lease, holder, true, 0);
    }

    /**
     * One acquire attempt writing {@code rawInfo} as field/value pairs into the info hash (the layout of
     * older clients, for tools and tests); {@link #acquire(Lease, LockHolder)} is what the engine uses.
     */
    public AcquireResult acquire(Lease lease, Map<String, String> rawInfo) {
        List<String> args = new ArrayList<>(4 + rawInfo.size() * 2);
        args.add(lease.token());
        args.add(Long.toString(lease.ttlMillis()));
        args.add(fenceRetentionMillis);
        args.add("1");
        rawInfo.forEach((k, v) -> {
            args.add(k);
            args.add(v);
        });
        return acquire(lease, () -> ACQUIRE.run(redis, lockKeys(lease.name()), args), 0);
    }

    /**
     * One acquire attempt (see acquire.lua) waiting for a free connection until {@code deadlineNanos}
     * (the caller's wait budget; 0 = none), at least the Redis timeout; {@code storeFloor = false}
     * (Redlock phase 1) leaves a counter below the clock floor as it is and says so in
     * {@link AcquireResult#counterBehind()}.
     */
    public AcquireResult acquire(Lease lease, LockHolder holder, boolean storeFloor, long deadlineNanos) {
        // keys and arguments encoded here, once: lock, info, fence | token, ttl, retention, floor, holder
        byte[] lock = lockKey(lease.name());
        Rawable[] k = {Encoded.wrap(lock), Encoded.suffixed(lock, KeySpace.INFO_SUFFIX), Encoded.suffixed(lock, KeySpace.FENCE_SUFFIX)};
        Rawable[] a = {Encoded.of(lease.token()), ttlArg(lease.ttlMillis()), fenceRetentionRaw,
                storeFloor ? STORE_FLOOR : NO_FLOOR, Encoded.wrap(holder.encodeUtf8())};
        return acquire(lease, () -> runHot(ACQUIRE, k, a), deadlineNanos);
    }

    /** A hot-path script (acquire, release): on the shared connection if this node has one, else on a pooled one. */
    private Object runHot(LuaScript script, Rawable[] scriptKeys, Rawable[] args) {
        return shared != null ? script.run(shared, scriptKeys, args) : script.run(redis, scriptKeys, args);
    }

    /** The lock's key as UTF-8 (the key layout is {@link KeySpace}'s); its other keys are suffixes of it. */
    private byte[] lockKey(String name) {
        return keys.lock(name).getBytes(StandardCharsets.UTF_8);
    }

    private Encoded ttlArg(long ttlMillis) {
        TtlArg last = lastTtl;
        if (last.millis() != ttlMillis) {
            last = new TtlArg(ttlMillis, Encoded.of(Long.toString(ttlMillis)));
            lastTtl = last;
        }
        return last.raw();
    }

    private record TtlArg(long millis, Encoded raw) {
    }

    private AcquireResult acquire(Lease lease, Supplier<Object> script, long deadlineNanos) {
        What what = new What("acquire", lease.name());
        Object raw = call(what, deadlineNanos, script);
        if (raw instanceof Long n) { // the hot paths (see acquire.lua): the fence, or -2 - the holder's PTTL
            if (n > 0) {
                return AcquireResult.acquired(n, lease.ttlMillis());
            }
            if (n == -1L) {
                // Lockwarden always sets a TTL: a lock key without one was written by someone else
                throw new NodeException(address, "Redis " + address + ": key " + keys.lock(lease.name()) + " exists without a TTL ("
                        + what + "), so it was not written by Lockwarden and would block the lock forever. Delete it"
                        + " (or use another key prefix).");
            }
            if (n < -1L) {
                return AcquireResult.busy(-2 - n);
            }
        }
        List<?> reply = replyList(what, raw, 3);
        if (replyLong(what, reply.get(0)) != 1L) {
            throw unexpected(what, reply);
        }
        long fence = replyLong(what, reply.get(1));
        return Long.valueOf(1L).equals(reply.get(2)) ? AcquireResult.acquiredAboveCounter(fence, lease.ttlMillis())
                : AcquireResult.acquired(fence, lease.ttlMillis());
    }

    /**
     * What a call does, for error messages: rendered only when one is written, so the hot path
     * builds no description string per call.
     */
    private record What(String verb, String name) {
        @Override
        public String toString() {
            return verb + " '" + name + "'";
        }
    }

    /** Token-checked release (see release.lua). */
    public boolean release(Lease lease) {
        return release(lease, true);
    }

    /** Token-checked release; {@code wakeWaiters = false} skips the release message (see release.lua). */
    public boolean release(Lease lease, boolean wakeWaiters) {
        return release(lease, wakeWaiters, 0);
    }

    /** Token-checked release; {@code keepMillis > 0} keeps the lock that long instead (holdAtLeast, see release.lua). */
    public boolean release(Lease lease, boolean wakeWaiters, long keepMillis) {
        ReleaseCall c = releaseCall(lease, wakeWaiters, keepMillis);
        Object reply = call(new What("release", lease.name()), 0, () -> runHot(RELEASE, c.scriptKeys(), c.args()));
        return Long.valueOf(1L).equals(reply);
    }

    /** True if acquire and release share one connection, so Redis runs them in the order this JVM sends them. */
    public boolean sharesConnection() {
        return shared != null;
    }

    /**
     * {@link #release(Lease, boolean, long)} on the shared connection ({@link #sharesConnection()} must be
     * true) that runs {@code sent} once, as soon as the release is queued ahead of every later acquire or
     * release this JVM sends to this node and before it is flushed — before it is known whether the lock was
     * still ours.
     */
    public boolean release(Lease lease, boolean wakeWaiters, long keepMillis, Runnable sent) {
        if (shared == null) {
            throw new IllegalStateException("no shared connection to " + address + ": use release(lease, wakeWaiters, keepMillis)");
        }
        ReleaseCall c = releaseCall(lease, wakeWaiters, keepMillis);
        boolean[] ran = {false}; // once, though a broken connection may make the call send the script again
        Runnable once = () -> {
            if (!ran[0]) {
                ran[0] = true;
                sent.run();
            }
        };
        Object reply = call(new What("release", lease.name()), 0, () -> RELEASE.run(shared, c.scriptKeys(), c.args(), once));
        return Long.valueOf(1L).equals(reply);
    }

    /**
     * Token-checked release of many leases in one pipelined round trip (shutdown); {@code keepMillis[i] > 0}
     * keeps lease i that long (holdAtLeast). True per lease that was still ours.
     */
    public boolean[] releaseMany(List<Lease> leases, long[] keepMillis) {
        boolean[] ours = new boolean[leases.size()];
        if (leases.isEmpty()) {
            return ours;
        }
        List<Response<Object>> replies = new ArrayList<>(leases.size());
        call("release " + leases.size() + " lock(s)", () -> {
            replies.clear();
            try (AbstractPipeline p = redis.pipelined()) {
                for (int i = 0; i < leases.size(); i++) {
                    ReleaseCall c = releaseCall(leases.get(i), true, keepMillis[i]);
                    replies.add(RELEASE.queue(p, c.scriptKeys(), c.args()));
                }
                p.sync();
            }
            return null;
        });
        for (int i = 0; i < leases.size(); i++) {
            Object r;
            try {
                r = replies.get(i).get();
            } catch (RuntimeException e) {
                if (!LuaScript.isNoScript(e)) {
                    throw new NodeException(address, "Redis " + address + " rejected release of '" + leases.get(i).name() + "': "
                            + e.getMessage(), e);
                }
                r = release(leases.get(i), true, keepMillis[i]) ? 1L : 0L;
            }
            ours[i] = Long.valueOf(1L).equals(r);
        }
        return ours;
    }

    /** Keys and arguments of one release.lua call, encoded once. */
    private record ReleaseCall(Rawable[] scriptKeys, Rawable[] args) {
    }

    /**
     * Keys: lock, info and, when this node records cycles, the lock's history stream. Arguments: token, channel,
     * keep and, with history, its length, the name and its retention (the layout of release.lua). A quiet release
     * (the cleanup of a failed Redlock attempt) records no cycle: nobody held the lock.
     */
    private ReleaseCall releaseCall(Lease lease, boolean wakeWaiters, long keepMillis) {
        byte[] lock = lockKey(lease.name());
        Rawable info = Encoded.suffixed(lock, KeySpace.INFO_SUFFIX);
        Rawable token = Encoded.of(lease.token());
        Rawable channel = wakeWaiters && keepMillis <= 0 ? Encoded.suffixed(lock, KeySpace.RELEASED_SUFFIX) : QUIET;
        Rawable keep = keepMillis > 0 ? Encoded.of(keepMillis) : NO_KEEP;
        String retention = cycleRetention;
        if (retention == null) {
            return new ReleaseCall(new Rawable[] {Encoded.wrap(lock), info}, new Rawable[] {token, channel, keep});
        }
        return new ReleaseCall(new Rawable[] {Encoded.wrap(lock), info, Encoded.suffixed(lock, HISTORY_SUFFIX)},
                new Rawable[] {token, channel, keep, wakeWaiters ? HISTORY_MAX_LEN_RAW : NO_HISTORY, Encoded.of(lease.name()),
                    Encoded.of(retention)});
    }

    /** Token-checked refresh of one lock to {@code lease.ttlMillis()} (see refresh.lua); true if still ours. */
    public boolean extend(Lease lease) {
        Object reply = call("extend '" + lease.name() + "'", () -> REFRESH.run(redis,
                List.of(keys.lock(lease.name()), keys.info(lease.name())),
                List.of(lease.token(), Long.toString(lease.ttlMillis()))));
        return Long.valueOf(1L).equals(reply);
    }

    /**
     * Token-checked refresh of many leases in one round trip: chunks of {@value #REFRESH_CHUNK} locks per
     * script call, pipelined (on a cluster, where keys span slots, one script call per lock).
     */
    public boolean[] refresh(List<Lease> leases) {
        boolean[] ours = new boolean[leases.size()];
        if (leases.isEmpty()) {
            return ours;
        }
        int chunk = singleSlotScriptsOnly() ? 1 : REFRESH_CHUNK;
        List<List<Lease>> chunks = new ArrayList<>();
        for (int i = 0; i < leases.size(); i += chunk) {
            chunks.add(leases.subList(i, Math.min(leases.size(), i + chunk)));
        }
        List<Response<Object>> replies = new ArrayList<>(chunks.size());
        call("refresh " + leases.size() + " lock(s)", () -> {
            replies.clear(); // a retried call starts over
            try (AbstractPipeline p = redis.pipelined()) {
                for (List<Lease> c : chunks) {
                    replies.add(scriptOf(c).queue(p, refreshKeys(c), refreshArgs(c)));
                }
                p.sync();
            }
            return null;
        });
        int at = 0;
        for (int i = 0; i < chunks.size(); i++) {
            List<Lease> c = chunks.get(i);
            Object r;
            try {
                r = replies.get(i).get();
            } catch (RuntimeException e) {
                if (!LuaScript.isNoScript(e)) {
                    throw new NodeException(address, "Redis " + address + " rejected refresh of '" + c.get(0).name()
                            + "'" + (c.size() > 1 ? " and " + (c.size() - 1) + " more" : "") + ": " + e.getMessage(), e);
                }
                r = call("refresh " + c.size() + " lock(s)", () -> scriptOf(c).run(redis, refreshKeys(c), refreshArgs(c)));
            }
            if (r instanceof List<?> many) {
                for (Object one : many) {
                    ours[at++] = Long.valueOf(1L).equals(one);
                }
            } else {
                ours[at++] = Long.valueOf(1L).equals(r);
            }
        }
        return ours;
    }

    /** True where one script may only touch one hash slot (Redis Cluster). */
    protected boolean singleSlotScriptsOnly() {
        return false;
    }

    private static LuaScript scriptOf(List<Lease> chunk) {
        return chunk.size() == 1 ? REFRESH : REFRESH_MANY;
    }

    /**
     * Redlock phase 2: raises the fence counter to at least {@code fence} (see raise-fence.lua); an
     * empty {@code token} only raises. True if the lock on this node is still held with {@code token}.
     */
    public boolean raiseFence(String name, String token, long fence) {
        Object reply = call("raise the fence of '" + name + "'", () -> RAISE_FENCE.run(redis, lockKeys(name),
                List.of(token, Long.toString(fence), fenceRetentionMillis)));
        return Long.valueOf(1L).equals(reply);
    }

    /**
     * Force-release in one script (see force-release.lua): only if the lock still has the token whose
     * SHA-1 is {@code tokenSha1} ("" = any holder) and a fence not above {@code fence} (0 = any),
     * it deletes the lock, bumps the fence, appends {@code audit} to the lock's capped history and,
     * off a cluster, to {@link KeySpace#AUDIT}, wakes waiters and notifies the holder. On a cluster,
     * where one script touches one slot only, the audit stream is written right after.
     */
    public ForceReleased forceRelease(String name, String tokenSha1, long fence, Map<String, String> audit,
                                      long auditMaxLen, long historyMaxLen) {
        List<String> k = new ArrayList<>(List.of(keys.lock(name), keys.info(name), keys.fence(name), historyKey(name),
                forceReleasedKey(name)));
        boolean cluster = singleSlotScriptsOnly();
        if (!cluster) {
            k.add(KeySpace.AUDIT);
        }
        List<String> args = new ArrayList<>(List.of(keys.releasedChannel(name), fenceRetentionMillis, tokenSha1,
                Long.toString(fence), Long.toString(auditMaxLen), Long.toString(historyMaxLen), holderChannel(name)));
        audit.forEach((f, v) -> {
            args.add(f);
            args.add(v);
        });
        List<?> reply = (List<?>) callOnce("force-release '" + name + "'", () -> FORCE_RELEASE.run(redis, k, args));
        if (((Long) reply.get(0)) == 0L) {
            return new ForceReleased(String.valueOf(reply.get(1)), 0, Long.parseLong(String.valueOf(reply.get(2))), null, null, Map.of());
        }
        Map<String, String> info = new LinkedHashMap<>();
        for (int i = 5; i + 1 < reply.size(); i += 2) {
            info.put(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1)));
        }
        String historyId = String.valueOf(reply.get(3));
        String auditId = String.valueOf(reply.get(4));
        if (cluster) {
            auditId = copyToAudit(name, historyId, auditMaxLen);
        }
        return new ForceReleased("released", Long.parseLong(String.valueOf(reply.get(1))),
                Long.parseLong(String.valueOf(reply.get(2))), historyId, auditId, info);
    }

    /** Cluster only: the audit record the script wrote into the lock's history, appended to the global stream. */
    private String copyToAudit(String name, String historyId, long auditMaxLen) {
        StreamEntryID id = new StreamEntryID(historyId);
        return call("write the audit record of '" + name + "'", () -> {
            List<StreamEntry> e = redis.xrange(historyKey(name), id, id);
            Map<String, String> fields = new LinkedHashMap<>(e.isEmpty() ? Map.of("name", name) : e.get(0).getFields());
            fields.remove("type");
            return redis.xadd(KeySpace.AUDIT, XAddParams.xAddParams().maxLen(auditMaxLen).approximateTrimming(), fields).toString();
        });
    }

    /** The lock's own capped history stream (cycles, force-releases, lost locks; hash-tagged like the lock). */
    public String historyKey(String name) {
        return keys.lock(name) + HISTORY_SUFFIX;
    }

    /**
     * Makes every release on this node append its cycle to the lock's own history stream ({@link #historyKey},
     * capped at about {@value #HISTORY_MAX_LEN} entries, expiring {@code retentionMillis} after its last
     * entry) inside the release script: two commands in Redis, nothing on the client; the stream shares
     * the lock's hash slot, so this works on Redis Cluster too. {@code retentionMillis <= 0} stops it.
     */
    public void recordCycles(long retentionMillis) {
        this.cycleRetention = retentionMillis > 0 ? Long.toString(retentionMillis) : null;
    }

    /**
     * Short-lived hash a force-release leaves (old token's SHA-1, operator, new fence) for the old holder,
     * whose refresh then reports "force-released by ..." (hash-tagged like the lock).
     */
    public String forceReleasedKey(String name) {
        return keys.lock(name) + ":forced";
    }

    /** Channel on which a force-release tells the holder (hash-tagged like the lock). */
    public String holderChannel(String name) {
        return keys.lock(name) + ":force-released";
    }

    /** The fence counter (0 when the lock was never taken or its retention passed). */
    public long currentFence(String name) {
        String what = "read fence of '" + name + "'";
        String v = call(what, () -> redis.get(keys.fence(name)));
        return v == null ? 0 : replyLong(what, v);
    }

    /** A script reply that must be a list of at least {@code size} elements, else a clear store error. */
    private List<?> replyList(Object what, Object reply, int size) {
        if (reply instanceof List<?> l && l.size() >= size) {
            return l;
        }
        throw unexpected(what, reply);
    }

    /** A reply element that must be an integer (or its decimal text). */
    private long replyLong(Object what, Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof String || value instanceof byte[]) {
            String text = value instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : (String) value;
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw unexpected(what, value);
    }

    private NodeException unexpected(Object what, Object reply) {
        String shown = String.valueOf(reply);
        return new NodeException(address, "Redis " + address + " gave an unexpected reply to " + what + ": "
                + (shown.length() > 80 ? shown.substring(0, 80) + "..." : shown) + ". A key of this lock holds a value"
                + " Lockwarden did not write, or the server is not a Redis this version supports.");
    }

    /**
     * Runs an idempotent Redis call, turning every Jedis failure into a {@link NodeException}
     * naming this node. A broken connection is retried once on a fresh one: after a Redis restart
     * every idle pooled connection is dead, so the pool's idle connections are dropped first.
     */
    public <T> T call(String what, Supplier<T> action) {
        return call(what, 0, action);
    }

    /** {@link #call(String, Supplier)} waiting for a free connection until {@code deadlineNanos} (0 = none), at least the timeout. */
    public <T> T call(Object what, long deadlineNanos, Supplier<T> action) {
        enter(deadlineNanos, what);
        try {
            return ungatedCall(what, action);
        } finally {
            exit();
        }
    }

    private void enter(long deadlineNanos, Object what) {
        if (gate != null) {
            gate.enter(deadlineNanos, what);
        }
    }

    private void exit() {
        if (gate != null) {
            gate.exit();
        }
    }

    private <T> T ungatedCall(Object what, Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisConnectionException first) {
            if (isPoolExhausted(first)) {
                throw poolBusy(what);
            }
            if (isTimeout(first)) {
                return ungatedCallOnce(what, () -> {
                    throw first; // a stalled server: retrying would only double the wait
                });
            }
            dropIdleConnections();
            return ungatedCallOnce(what, action);
        } catch (JedisException e) {
            return ungatedCallOnce(what, () -> {
                throw e;
            });
        }
    }

    /** Runs a call that must not be repeated (e.g. force-release), mapping failures like {@link #call}. */
    public <T> T callOnce(String what, Supplier<T> action) {
        enter(0, what);
        try {
            return ungatedCallOnce(what, action);
        } finally {
            exit();
        }
    }

    private <T> T ungatedCallOnce(Object what, Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisConnectionException e) {
            if (isPoolExhausted(e)) {
                throw poolBusy(what);
            }
            if (isTimeout(e)) {
                throw new NodeTimeoutException(address, "Redis " + address + " did not answer in time ("
                        + what + "): " + rootMessage(e) + ". It is stalled or overloaded; raise the timeout if it is just slow.", e);
            }
            throw new NodeException(address, "Redis " + address + " is unreachable (" + what + "): " + rootMessage(e)
                    + ". Check that Redis runs there and the URI is right.", e);
        } catch (JedisException e) {
            if (isPoolExhausted(e)) {
                throw poolBusy(what);
            }
            String why = rootMessage(e);
            if (why.contains("WRONGTYPE") || why.contains("not an integer")) {
                why += ". A key of this lock (its name, :info or :fence) holds a value Lockwarden did not write"
                        + " (someone SET/HSET it by hand?): inspect and delete it";
            }
            throw new NodeException(address, "Redis " + address + " failed to " + what + ": " + why, e);
        }
    }

    /** Our own pool ran dry (callers outside the gate hold every connection): not a Redis failure. */
    private dev.lockwarden.LocalPoolBusyException poolBusy(Object what) {
        return ConnectionGate.busy(address, what, -1);
    }

    private static boolean isPoolExhausted(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.util.NoSuchElementException
                    || (t.getMessage() != null && t.getMessage().startsWith("Could not get a resource from the pool"))) {
                return true;
            }
        }
        return false;
    }

    /** Drops idle pooled connections (they are all dead after a server restart); no-op for other clients. */
    protected void dropIdleConnections() {
        if (redis instanceof RedisClient c) {
            try {
                c.getPool().clear();
            } catch (RuntimeException ignored) {
                // best effort
            }
        }
    }

    public UnifiedJedis redis() {
        return redis;
    }

    public String address() {
        return address;
    }

    public KeySpace keySpace() {
        return keys;
    }

    /** The connections SCAN must visit to see every key: this node, or every master of a cluster. */
    public List<UnifiedJedis> scanTargets() {
        return List.of(redis);
    }

    @Override
    public void close() {
        if (shared != null) {
            shared.close();
        }
        redis.close();
    }

    private List<String> lockKeys(String name) {
        String lock = keys.lock(name);
        return List.of(lock, lock + KeySpace.INFO_SUFFIX, lock + KeySpace.FENCE_SUFFIX);
    }

    /** lock, info of each lease (the layout of refresh.lua and refresh-many.lua). */
    private List<String> refreshKeys(List<Lease> leases) {
        List<String> k = new ArrayList<>(leases.size() * 2);
        for (Lease l : leases) {
            k.add(keys.lock(l.name()));
            k.add(keys.info(l.name()));
        }
        return k;
    }

    /** token, ttl of each lease. */
    private static List<String> refreshArgs(List<Lease> leases) {
        List<String> a = new ArrayList<>(leases.size() * 2);
        for (Lease l : leases) {
            a.add(l.token());
            a.add(Long.toString(l.ttlMillis()));
        }
        return a;
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }

    /**
     * Reply of a force-release.
     *
     * @param outcome   {@code released}, {@code free} (nothing held) or {@code changed} (another token or a newer fence)
     * @param oldFence  the removed holder's fence
     * @param newFence  the counter after the bump (the current counter when nothing was released)
     * @param historyId id of the record in the lock's history stream
     * @param auditId   id of the record in {@link KeySpace#AUDIT}
     * @param holder    the removed holder's info hash
     */
    public record ForceReleased(String outcome, long oldFence, long newFence, String historyId, String auditId,
                                Map<String, String> holder) {
        public boolean released() {
            return "released".equals(outcome);
        }
    }
}
