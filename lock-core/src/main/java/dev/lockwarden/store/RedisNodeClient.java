package dev.lockwarden.store;

import dev.lockwarden.config.RedisUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * One Redis deployment's calls: a single node or, on Redis Cluster, the cluster client, which routes
 * each script by its hash tag (what a cluster needs beyond that is {@link ClusterMasters}). Each script's
 * arguments and reply are its own class's ({@link AcquireScript}, {@link ReleaseScript},
 * {@link RefreshScript}, {@link RaiseFenceScript}, {@link ForceReleaseScript}); how a call is admitted,
 * retried and how its failures are mapped is {@link NodeCalls}'; a batch's round trip is {@link ScriptPipeline}'s.
 * This class picks the connection for each call; for a lease with replica acknowledgement, {@link ReplicaWait} does.
 * Over 200 lines because it is the one entry point of every call to a node: each script's call, the two
 * batches (release and refresh many) and the node's connections.
 */
public final class RedisNodeClient implements AutoCloseable {
    private final UnifiedJedis redis;
    private final String address;
    private final KeySpace keys;
    private final long fenceRetentionMillis;
    private final NodeCalls calls;
    /** The connection acquire and release share (null = they use the client's pool like every other call). */
    private final SharedConnection shared;
    /** Null off a cluster. */
    private final ClusterMasters cluster;
    /** The refresh of many leases, one pipeline per slot owner; null off a cluster. */
    private final ClusterRefresh clusterRefresh;
    /** The calls of leases with replica acknowledgement (on a cluster, on the connection of the slot's owner). */
    private final ReplicaWait replicaWait;

    private final AcquireScript acquire;
    private final ReleaseScript release;
    private final RefreshScript refresh;
    private final RaiseFenceScript raiseFence;

    /**
     * @param conn   at most {@code conn.maxConnections()} calls at once ({@link ConnectionGate}); null = no gate
     * @param shared the connection acquire and release share ({@link SharedConnection}), closed with this
     *               client; null = they take pooled connections
     */
    RedisNodeClient(
            UnifiedJedis redis,
            String address,
            KeySpace keys,
            long fenceRetentionMillis,
            ConnectionSettings conn,
            SharedConnection shared) {
        this(redis, address, keys, fenceRetentionMillis, conn, shared, null);
    }

    private RedisNodeClient(
            UnifiedJedis redis,
            String address,
            KeySpace keys,
            long fenceRetentionMillis,
            ConnectionSettings conn,
            SharedConnection shared,
            ClusterMasters cluster) {
        this.redis = redis;
        this.address = address;
        this.keys = keys;
        this.fenceRetentionMillis = fenceRetentionMillis;
        this.calls = new NodeCalls(
                address,
                conn == null
                        ? null
                        : new ConnectionGate(
                                conn.maxConnections(), conn.timeout().toMillis(), address),
                () -> NodeCalls.dropIdleConnections(redis));
        this.shared = shared;
        this.cluster = cluster;
        this.acquire = new AcquireScript(keys, fenceRetentionMillis);
        this.release = new ReleaseScript(keys);
        this.refresh = new RefreshScript(keys);
        this.raiseFence = new RaiseFenceScript(keys, fenceRetentionMillis);
        this.replicaWait =
                new ReplicaWait(redis, calls, conn, acquire, refresh, l -> release(l, ReleaseScript.Wake.IF_WAITED, 0));
        this.clusterRefresh = cluster == null ? null : new ClusterRefresh(redis, calls, replicaWait);
    }

    /** The client of a Redis Cluster; {@code seed} gives the masters' credentials and TLS. */
    static RedisNodeClient cluster(
            RedisClusterClient client,
            String address,
            RedisUri seed,
            ConnectionSettings conn,
            KeySpace keys,
            long fenceRetentionMillis) {
        return new RedisNodeClient(
                client, address, keys, fenceRetentionMillis, conn, null, new ClusterMasters(client, seed, conn));
    }

    /**
     * One acquire attempt (see acquire.lua) waiting for a free connection until {@code deadlineNanos}
     * (the caller's wait budget; 0 = none), at least the Redis timeout; {@code storeFloor = false}
     * (Redlock phase 1) leaves a counter below the clock floor as it is; a {@code waiter}'s busy answer
     * marks the lock as waited for.
     */
    AcquireResult acquire(Lease lease, LockHolder holder, boolean storeFloor, long deadlineNanos, boolean waiter) {
        ScriptCall c = acquire.call(lease, holder, storeFloor, waiter);
        CallDescription what = new CallDescription("acquire", lease.name());
        if (lease.acks().on()) {
            return replicaWait.acquire(lease, c, what, deadlineNanos);
        }
        return acquire.reply(lease, calls.run(what, deadlineNanos, true, () -> runHot(c, null)), what, calls);
    }

    /** Token-checked release, its message as {@code wake} says; {@code keepMillis > 0} keeps the lock that long. */
    boolean release(Lease lease, ReleaseScript.Wake wake, long keepMillis) {
        ScriptCall c = release.call(lease, wake, keepMillis);
        return ReleaseScript.released(
                calls.run(new CallDescription("release", lease.name()), 0, true, () -> runHot(c, null)));
    }

    /** True if acquire and release share one connection, so Redis runs them in the order this JVM sends them. */
    boolean sharesConnection() {
        return shared != null;
    }

    /** This node's acquire, release and raise-fence scripts and failure mapping, for {@link RedlockPipelines}. */
    RedlockPipelines.NodeScripts scripts() {
        return new RedlockPipelines.NodeScripts(acquire, release, raiseFence, calls);
    }

    /**
     * A waking release on the shared connection ({@link #sharesConnection()}) that runs {@code sent} once it is
     * queued ahead of every later call to this node, before it is known whether the lock was still ours.
     */
    boolean release(Lease lease, long keepMillis, Runnable sent) {
        if (shared == null) {
            throw new IllegalStateException(
                    "no shared connection to " + address + ": use release(lease, wakeWaiters, keepMillis)");
        }
        ScriptCall c = release.call(lease, ReleaseScript.Wake.ALWAYS, keepMillis);
        boolean[] ran = {false}; // once, though a broken connection may make the call send the script again
        Runnable once = () -> {
            if (!ran[0]) {
                ran[0] = true;
                sent.run();
            }
        };
        return ReleaseScript.released(
                calls.run(new CallDescription("release", lease.name()), 0, true, () -> runHot(c, once)));
    }

    /** A hot-path script (acquire, release): on the shared connection if this node has one, else on a pooled one. */
    private Object runHot(ScriptCall c, Runnable sent) {
        return shared != null ? c.run(shared, sent) : c.run(redis);
    }

    /** Token-checked release of many leases in one pipeline (shutdown), {@code keepMillis[i]} as in release. */
    boolean[] releaseMany(List<Lease> leases, long[] keepMillis) {
        List<ScriptCall> batch = new ArrayList<>(leases.size());
        for (int i = 0; i < leases.size(); i++) {
            batch.add(release.call(leases.get(i), ReleaseScript.Wake.ALWAYS, keepMillis[i]));
        }
        List<Object> replies = ScriptPipeline.run(
                this,
                "release " + leases.size() + " lock(s)",
                batch,
                i -> "release '" + leases.get(i).name() + "'");
        boolean[] ours = new boolean[leases.size()];
        for (int i = 0; i < ours.length; i++) {
            ours[i] = ReleaseScript.released(replies.get(i));
        }
        return ours;
    }

    /** Token-checked refresh of one lock to {@code lease.ttlMillis()} (see refresh.lua); true if still ours. */
    boolean extend(Lease lease) {
        ScriptCall c = refresh.call(lease);
        if (lease.acks().on()) {
            return replicaWait.extend(lease, c);
        }
        return RefreshScript.extended(calls.run("extend '" + lease.name() + "'", 0, true, () -> c.run(redis)));
    }

    /** Token-checked refresh of many leases, pipelined: {@value RefreshScript#CHUNK} per call (cluster: 1). */
    boolean[] refresh(List<Lease> leases) {
        List<List<Lease>> chunks = refresh.chunks(leases, singleSlotScriptsOnly());
        List<Object> replies = ScriptPipeline.run(
                this,
                "refresh " + leases.size() + " lock(s)",
                chunks.stream().map(refresh::calls).toList(),
                i -> "refresh '" + chunks.get(i).get(0).name() + "'"
                        + (chunks.get(i).size() > 1 ? " and " + (chunks.get(i).size() - 1) + " more" : ""));
        boolean[] ours = new boolean[leases.size()];
        int at = 0;
        for (Object r : replies) {
            at = RefreshScript.extended(r, ours, at);
        }
        return ours;
    }

    /**
     * {@link #refresh(List)} with an answer per lease: on a cluster each slot owner answers for its own
     * leases (see {@link ClusterRefresh}); elsewhere the batch is confirmed or fails as a whole (replica
     * acknowledgement aside: {@link ReplicaWait#refreshEach}).
     */
    Refreshed refreshEach(List<Lease> leases) {
        return clusterRefresh != null ? clusterRefresh.run(leases) : replicaWait.refreshEach(leases, this::refresh);
    }

    /** True where one script may only touch one hash slot (Redis Cluster). */
    boolean singleSlotScriptsOnly() {
        return cluster != null;
    }

    /**
     * Redlock phase 2: raises the fence counter to at least {@code fence} (see raise-fence.lua); an
     * empty {@code token} only raises. True if the lock on this node is still held with {@code token}.
     */
    boolean raiseFence(String name, String token, long fence) {
        ScriptCall c = raiseFence.call(name, token, fence);
        return RaiseFenceScript.stillOurs(calls.run("raise the fence of '" + name + "'", 0, true, () -> c.run(redis)));
    }

    /** force-release.lua on this node, run once (see {@link ForceRelease}); auditMaxLen 0: not the audit stream. */
    ForceReleaseScript.Reply forceRelease(
            String name, String tokenSha1, long fence, Map<String, String> audit, long auditMaxLen) {
        ScriptCall c = ForceReleaseScript.call(
                keys, fenceRetentionMillis, name, tokenSha1, fence, audit, auditMaxLen, !singleSlotScriptsOnly());
        Object r = calls.run("force-release '" + name + "'", 0, false, () -> c.run(redis));
        return ForceReleaseScript.reply(r, this, name); // a key of another type: a WrongKeyTypeException
    }

    /**
     * Makes every release on this node append its cycle to the lock's own history stream
     * ({@link KeySpace#history}, capped at about {@value KeySpace#HISTORY_MAX_LEN} entries, expiring
     * {@code retentionMillis} after its last entry) inside the release script: two commands in Redis,
     * nothing on the client; the stream shares the lock's hash slot, so this works on Redis Cluster too.
     * {@code retentionMillis <= 0} stops it.
     */
    public void recordCycles(long retentionMillis) {
        release.recordCycles(retentionMillis);
    }

    /** The fence counter (0 when the lock was never taken or its retention passed). */
    public long currentFence(String name) {
        String what = "read fence of '" + name + "'";
        String v = call(what, () -> redis.get(keys.fence(name)));
        return v == null ? 0 : calls.integer(what, v);
    }

    /** An idempotent call; every Jedis failure is a {@link NodeException} naming this node (see {@link NodeCalls}). */
    public <T> T call(String what, Supplier<T> action) {
        return calls.run(what, 0, true, action);
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
        return cluster == null ? List.of(redis) : cluster.scanTargets(calls);
    }

    /**
     * The node that holds {@code key}: this node's address or, on a cluster, the slot's master written like the
     * seeds (password masked), from Jedis' slot cache (a round trip only if it has no owner for the slot).
     */
    public String masterOf(String key) {
        return cluster == null ? address : cluster.masterOf(key, calls);
    }

    @Override
    public void close() {
        if (cluster != null) {
            clusterRefresh.close();
            cluster.close();
        }
        if (shared != null) {
            shared.close();
        }
        redis.close();
    }
}
