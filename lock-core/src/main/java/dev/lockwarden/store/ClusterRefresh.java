package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The refresh of many leases on a Redis Cluster: one pipeline per slot owner, the owners in parallel, so
 * a failed or stalled master leaves only its own leases unconfirmed. A lease whose slot moved (MOVED or
 * ASK) is refreshed once more through the cluster client after the slot map is re-read; a failed node
 * makes the slot map be re-read too, so the next attempt finds a promoted replica. With replica
 * acknowledgement, each owner's pipeline ends with one {@code WAIT} ({@link ReplicaAcks#strictest} of its
 * leases), and a lease refreshed again on its own waits through {@link ReplicaWait} on its slot's owner.
 */
final class ClusterRefresh implements AutoCloseable {
    private final RedisClusterClient cluster;
    private final NodeCalls calls;
    private final RefreshScript script;
    private final ReplicaWait replicaWait;
    /** One thread per slot owner refreshed at once; idle threads end. */
    private final ExecutorService owners = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lockwarden-cluster-refresh");
        t.setDaemon(true);
        return t;
    });

    /** @param cluster a {@link RedisClusterClient} */
    ClusterRefresh(UnifiedJedis cluster, NodeCalls calls, ReplicaWait replicaWait) {
        this.cluster = (RedisClusterClient) cluster;
        this.calls = calls;
        this.script = replicaWait.refreshScript();
        this.replicaWait = replicaWait;
    }

    Refreshed run(List<Lease> leases) {
        boolean[] ours = new boolean[leases.size()];
        String[] failures = new String[leases.size()];
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < leases.size(); i++) {
            bySlot.computeIfAbsent(
                            JedisClusterCRC16.getSlot(
                                    script.keySpace().lock(leases.get(i).name())),
                            s -> new ArrayList<>())
                    .add(i);
        }
        Map<HostAndPort, List<Integer>> byOwner = new LinkedHashMap<>();
        bySlot.forEach((slot, indices) -> {
            try {
                byOwner.computeIfAbsent(ownerOf(slot), o -> new ArrayList<>()).addAll(indices);
            } catch (RuntimeException e) {
                indices.forEach(i -> failures[i] = e.getMessage());
            }
        });
        List<Integer> redirected = new ArrayList<>();
        List<CompletableFuture<Boolean>> runs = new ArrayList<>();
        byOwner.forEach((owner, indices) -> runs.add(CompletableFuture.supplyAsync(
                () -> onOwner(owner, indices, leases, ours, failures, redirected), owners)));
        boolean nodeFailed = false;
        for (CompletableFuture<Boolean> r : runs) {
            nodeFailed |= !r.join();
        }
        if (nodeFailed || !redirected.isEmpty() || anyFailed(failures)) {
            rereadSlots();
        }
        for (int i : redirected) {
            try {
                // the cluster client (or SlotOwnerWait) follows a further MOVED or ASK, within bounded attempts
                ours[i] = alone(leases.get(i), script.call(leases.get(i)));
                failures[i] = null;
            } catch (RuntimeException e) {
                failures[i] = e.getMessage();
            }
        }
        return new Refreshed(ours, failures);
    }

    /**
     * One pipelined round trip to {@code owner} for its leases; false if the node could not be reached.
     * Writes distinct indices only, and {@code redirected} under its own lock.
     */
    private boolean onOwner(
            HostAndPort owner,
            List<Integer> indices,
            List<Lease> leases,
            boolean[] ours,
            String[] failures,
            List<Integer> redirected) {
        List<ScriptCall> batch =
                indices.stream().map(i -> script.call(leases.get(i))).toList();
        List<Response<Object>> replies = new ArrayList<>(batch.size());
        ReplicaAcks acks =
                ReplicaAcks.strictest(indices.stream().map(leases::get).toList());
        long[] acked = {0};
        try {
            calls.run("refresh " + batch.size() + " lock(s) on cluster node " + owner, 0, true, () -> {
                replies.clear(); // a retried call starts over
                ConnectionPool pool = cluster.getClusterNodes().get(owner.toString());
                if (pool == null) {
                    throw new JedisConnectionException(owner + " left the slot map");
                }
                try (Connection c = pool.getResource()) {
                    Pipeline p = new Pipeline(c);
                    batch.forEach(call -> replies.add(call.queue(p)));
                    Response<Long> waited = acks.on() ? p.executeCommand(ReplicaWait.waitCommand(acks)) : null;
                    p.sync();
                    acked[0] = waited == null ? 0 : waited.get();
                }
                return null;
            });
        } catch (RuntimeException e) {
            indices.forEach(i -> failures[i] = e.getMessage());
            return false;
        }
        for (int k = 0; k < batch.size(); k++) {
            int i = indices.get(k);
            String what = "refresh '" + leases.get(i).name() + "'";
            try {
                ours[i] = RefreshScript.extended(replies.get(k).get());
                Lease l = leases.get(i);
                if (ours[i] && acked[0] < l.acks().replicas()) {
                    failures[i] = "Redis " + owner + ": refresh of lock '" + l.name() + "': "
                            + new ReplicaAcks(l.acks().replicas(), acks.timeoutMillis()).shortfall(acked[0]);
                }
            } catch (JedisRedirectionException e) {
                synchronized (redirected) {
                    redirected.add(i);
                }
            } catch (RuntimeException e) {
                if (!LuaScript.isNoScript(e)) {
                    failures[i] = "Redis " + owner + " rejected " + what + ": " + e.getMessage();
                    continue;
                }
                try {
                    ours[i] = alone(leases.get(i), batch.get(k));
                } catch (RuntimeException again) {
                    failures[i] = again.getMessage();
                }
            }
        }
        return true;
    }

    /** One lease refreshed on its own: through the cluster client, or with its replicas awaited on its owner. */
    private boolean alone(Lease lease, ScriptCall c) {
        if (lease.acks().on()) {
            return replicaWait.extend(lease, c); // too few acknowledgements: a NodeException naming the master
        }
        return RefreshScript.extended(calls.run("refresh '" + lease.name() + "'", 0, true, () -> c.run(cluster)));
    }

    private HostAndPort ownerOf(int slot) {
        return calls.run("find the master of slot " + slot, 0, true, () -> {
            try (Connection c = cluster.getConnectionFromSlot(slot)) {
                return c.getHostAndPort();
            }
        });
    }

    /** Re-reads the slot map from any reachable node; best effort (the next attempt tries again). */
    private void rereadSlots() {
        try {
            cluster.refreshClusterTopology();
        } catch (RuntimeException ignored) {
            // no node reachable right now: the leases stay unconfirmed and are retried
        }
    }

    private static boolean anyFailed(String[] failures) {
        for (String f : failures) {
            if (f != null) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        owners.shutdownNow();
    }
}
