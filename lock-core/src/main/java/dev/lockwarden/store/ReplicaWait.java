package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Replica acknowledgement: a lock's script followed by {@code WAIT replicas timeout}, pipelined on one connection
 * borrowed from the pool for the call (on a Redis Cluster, of the master owning the lock's slot: {@link SlotOwnerWait}).
 * <p>
 * Why not the {@link SharedConnection} that acquire and release use otherwise: {@code WAIT} counts only the
 * writes of the connection it runs on, so it must follow the script on the same connection; and it blocks that
 * connection until the replicas answer or the timeout passes, so on the shared connection every other thread's
 * acquire and release would queue behind it for up to the timeout. A borrowed connection blocks only this call:
 * one round trip (script and {@code WAIT} sent together) plus the replicas' own delay. {@code WAITAOF} (Redis
 * 7.2+) is not used: an acknowledgement means a replica received the write, not that it wrote it to its disk.
 */
final class ReplicaWait {
    private final UnifiedJedis redis;
    private final NodeCalls calls;
    private final long socketTimeoutMillis;
    private final AcquireScript acquire;
    private final RefreshScript refresh;
    /** The node's normal token-checked release. */
    private final Consumer<Lease> release;
    /** Null off a cluster. */
    private final SlotOwnerWait slotOwner;

    /** @param conn the node's timeout (null: Jedis' default, 2 s) */
    ReplicaWait(
            UnifiedJedis redis,
            NodeCalls calls,
            ConnectionSettings conn,
            AcquireScript acquire,
            RefreshScript refresh,
            Consumer<Lease> release) {
        this.redis = redis;
        this.calls = calls;
        this.socketTimeoutMillis = conn == null ? 2_000 : conn.timeout().toMillis();
        this.acquire = acquire;
        this.refresh = refresh;
        this.release = release;
        this.slotOwner = redis instanceof RedisClusterClient c ? new SlotOwnerWait(c) : null;
    }

    /** The refresh script these calls use. */
    RefreshScript refreshScript() {
        return refresh;
    }

    /** The scripts' replies, in order, how many replicas acknowledged them, and the master that ran them. */
    record Acked(List<Object> replies, long acks, String master) {}

    /**
     * One acquire with acknowledgement: granted but too few replicas acknowledged → {@code release} runs (the
     * normal token-checked release) and a {@link NodeException} naming this node and the acks is thrown.
     */
    AcquireResult acquire(Lease lease, ScriptCall attempt, CallDescription what, long deadlineNanos) {
        // a retry (broken connection) may find its own token and write nothing, and WAIT after no write of the
        // connection counts every replica: the retry also refreshes the lock, a write WAIT then covers
        Acked a = run(what, deadlineNanos, List.of(attempt), List.of(attempt, refresh.call(lease)), lease.acks());
        AcquireResult r = acquire.reply(lease, a.replies().get(0), what, calls);
        if (r.acquired() && a.acks() < lease.acks().replicas()) {
            NodeException e = tooFew(lease, a, "was released, not handed out");
            try {
                release.accept(lease);
            } catch (RuntimeException failed) {
                e.addSuppressed(failed); // the caller gives the token back later (an unconfirmed attempt)
            }
            throw e;
        }
        return r;
    }

    /**
     * An explicit refresh with acknowledgement: true if still ours and acknowledged, false if no longer ours.
     *
     * @throws NodeException still ours but too few replicas acknowledged: the extension does not count
     */
    boolean extend(Lease lease, ScriptCall refresh) {
        Acked a = run("extend '" + lease.name() + "'", 0, List.of(refresh), List.of(refresh), lease.acks());
        boolean ours = RefreshScript.extended(a.replies().get(0));
        if (ours && a.acks() < lease.acks().replicas()) {
            throw tooFew(lease, a, "is still held, but the extension is not confirmed");
        }
        return ours;
    }

    /**
     * The watchdog's refresh of many leases: {@code plain} if none asks for acknowledgement, else in one pipeline
     * with one {@code WAIT} ({@link ReplicaAcks#strictest}): a lease still ours whose replicas did not all
     * acknowledge is not confirmed (a failed refresh: retried soon, lost when its validity runs out).
     */
    Refreshed refreshEach(List<Lease> leases, Function<List<Lease>, boolean[]> plain) {
        ReplicaAcks acks = ReplicaAcks.strictest(leases);
        if (!acks.on()) {
            return Refreshed.confirmed(plain.apply(leases));
        }
        List<List<Lease>> chunks = refresh.chunks(leases, false);
        List<ScriptCall> batch = chunks.stream().map(refresh::calls).toList();
        Acked a = run("refresh " + leases.size() + " lock(s)", 0, batch, batch, acks);
        boolean[] ours = new boolean[leases.size()];
        int at = 0;
        for (Object r : a.replies()) {
            at = RefreshScript.extended(r, ours, at);
        }
        String[] failures = new String[leases.size()];
        for (int i = 0; i < ours.length; i++) {
            Lease l = leases.get(i);
            if (ours[i] && a.acks() < l.acks().replicas()) {
                failures[i] = "Redis " + a.master() + ": refresh of lock '" + l.name() + "': "
                        + new ReplicaAcks(l.acks().replicas(), acks.timeoutMillis()).shortfall(a.acks());
            }
        }
        return new Refreshed(ours, failures);
    }

    /**
     * Runs {@code batch} then {@code WAIT} on one pooled connection ({@code onRetry} after a broken connection);
     * a script the server did not have cached makes the whole batch run again as EVAL, on one connection again.
     */
    private Acked run(
            Object what, long deadlineNanos, List<ScriptCall> batch, List<ScriptCall> onRetry, ReplicaAcks acks) {
        if (acks.timeoutMillis() >= socketTimeoutMillis) {
            throw new IllegalArgumentException("replicaAcks timeout " + acks.timeoutMillis()
                    + " ms is not shorter than the Redis timeout " + socketTimeoutMillis
                    + " ms (LockManager.Builder.timeout): the read would give up before WAIT answers;"
                    + " shorten the replicaAcks timeout or raise the Redis timeout");
        }
        boolean[] retry = {false};
        return calls.run(what, deadlineNanos, true, () -> {
            List<ScriptCall> sent = retry[0] ? onRetry : batch;
            retry[0] = true;
            Acked a = once(sent, acks, false);
            return a != null ? a : once(sent, acks, true);
        });
    }

    /** One pipeline: the scripts, then WAIT; null if a script was not cached (it did not run; the others are refreshes). */
    private Acked once(List<ScriptCall> batch, ReplicaAcks acks, boolean eval) {
        if (slotOwner != null) {
            return slotOwner.once(batch, acks, eval);
        }
        List<Response<Object>> replies = new ArrayList<>(batch.size());
        Response<Long> waited;
        try (AbstractPipeline p = redis.pipelined()) {
            for (ScriptCall c : batch) {
                replies.add(eval ? c.queueEval(p) : c.queue(p));
            }
            waited = p.executeCommand(waitCommand(acks));
            p.sync();
        }
        String at = redis instanceof RedisSentinelClient s // the master the sentinels name now (for INFO)
                ? calls.address() + " (master " + s.getCurrentMaster() + ")"
                : calls.address();
        return collect(replies, waited, eval, at);
    }

    /** {@code WAIT replicas timeout}. */
    static CommandObject<Long> waitCommand(ReplicaAcks acks) {
        return new CommandObject<>(
                new CommandArguments(Protocol.Command.WAIT).add(acks.replicas()).add(acks.timeoutMillis()),
                BuilderFactory.LONG);
    }

    /** The replies of a synced pipeline; null if a script was not cached and {@code eval} is false. */
    static Acked collect(List<Response<Object>> replies, Response<Long> waited, boolean eval, String master) {
        List<Object> out = new ArrayList<>(replies.size());
        for (Response<Object> r : replies) {
            try {
                out.add(r.get());
            } catch (JedisDataException e) {
                if (!eval && LuaScript.isNoScript(e)) {
                    return null;
                }
                throw e;
            }
        }
        return new Acked(out, waited.get(), master);
    }

    private NodeException tooFew(Lease lease, Acked a, String outcome) {
        return new NodeException(
                calls.address(),
                "Redis " + a.master() + ": " + lease.acks().shortfall(a.acks()) + "; lock '" + lease.name() + "' "
                        + outcome + ". A replica of this master is down or behind (see INFO replication there),"
                        + " or the timeout is too short for it");
    }
}
