package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * One Redis deployment as a {@code LockManager} sees it: its node clients (one for a single node or
 * a cluster, N for Redlock), key space, quorum rule and drift rule. Built once ({@link StoreFactory})
 * and handed to the store, wake-up bus, event recorder, heartbeat and inspector, so none of them
 * rebuilds it from raw clients. Calls to every node go through {@link #onEveryNode} (in parallel).
 * <p>
 * Over 200 lines because it is the one view of a deployment that every component shares: its nodes, quorum,
 * fan-out, Redlock pipelines and failover watch.
 */
public final class RedisDeployment implements AutoCloseable {
    private final StoreFactory.Topology topology;
    private final List<RedisNodeClient> nodes;
    private final KeySpace keys;
    private final int quorum;
    /** Parallel calls to the nodes; null for one node (calls run on the caller's thread). */
    private final NodeFanOut fanOut;
    /** Hears the failovers of a Sentinel or Cluster deployment; null for the other topologies. */
    private final TopologyWatch watch;
    /** Redlock's acquire and release, pipelined to the nodes; null elsewhere (then they take the fan-out's lanes). */
    private final RedlockPipelines pipelines;

    /**
     * @param lanesPerNode parallel calls per node when there are several nodes
     */
    public RedisDeployment(
            StoreFactory.Topology topology, List<RedisNodeClient> nodes, KeySpace keys, int lanesPerNode) {
        this(topology, nodes, keys, lanesPerNode, null, null);
    }

    RedisDeployment(
            StoreFactory.Topology topology,
            List<RedisNodeClient> nodes,
            KeySpace keys,
            int lanesPerNode,
            TopologyWatch watch,
            RedlockPipelines pipelines) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a Redis deployment needs at least one node");
        }
        this.topology = topology;
        this.nodes = List.copyOf(nodes);
        this.keys = keys;
        this.quorum = quorumOf(nodes.size());
        this.fanOut = nodes.size() > 1 ? new NodeFanOut(this.nodes, lanesPerNode) : null;
        this.watch = watch;
        this.pipelines = pipelines;
    }

    /**
     * Calls {@code listener} (with a short description, not blocking) each time a Sentinel or Cluster
     * deployment failed over, once the connections follow the new masters; other topologies never call it.
     */
    public void onMasterSwitch(java.util.function.Consumer<String> listener) {
        if (watch != null) {
            watch.onSwitch(listener);
        }
    }

    /** Nodes that must agree among {@code n}: {@code n/2 + 1} (1 of 1). */
    public static int quorumOf(int n) {
        return n / 2 + 1;
    }

    /** Single node, Redlock or cluster. */
    public StoreFactory.Topology topology() {
        return topology;
    }

    /** The node clients, in the order of the URIs given. */
    public List<RedisNodeClient> nodes() {
        return nodes;
    }

    /** Where events, activity counts and single-node reads go: the first node. */
    public RedisNodeClient first() {
        return nodes.get(0);
    }

    /** The Jedis clients of the nodes, in node order (pub/sub subscriptions). */
    public List<UnifiedJedis> clients() {
        List<UnifiedJedis> out = new ArrayList<>(nodes.size());
        nodes.forEach(n -> out.add(n.redis()));
        return out;
    }

    public KeySpace keySpace() {
        return keys;
    }

    /** Number of nodes. */
    public int size() {
        return nodes.size();
    }

    /** Nodes that must agree: N/2 + 1 (1 for a single node or a cluster). */
    public int quorum() {
        return quorum;
    }

    /** Whether {@code failures} failed nodes leave too few for a quorum (any failure of a single node). */
    public boolean tooManyFailures(int failures) {
        return failures > nodes.size() - quorum;
    }

    /**
     * Throws when {@code failures} (one message per failed node) leave too few nodes for a quorum.
     *
     * @throws LockStoreException naming what could not be done and every node's failure
     */
    public void requireQuorum(String what, List<String> failures) {
        if (tooManyFailures(failures.size())) {
            throw new LockStoreException("cannot " + what + ": " + failures.size() + " of " + nodes.size()
                    + " Redis nodes failed: " + String.join("; ", failures));
        }
    }

    /** Clock-drift allowance for a lock of {@code ttlMillis} (see {@link Drift}). */
    public long driftMillis(long ttlMillis) {
        return Drift.millis(ttlMillis);
    }

    /**
     * Runs {@code call} on every node (in parallel when there are several) and waits up to
     * {@code timeoutMillis} for all answers; one reply per node, in node order.
     */
    public <T> List<NodeReply<T>> onEveryNode(String what, Function<RedisNodeClient, T> call, long timeoutMillis) {
        return onEveryNode(what, null, call, timeoutMillis);
    }

    /**
     * {@link #onEveryNode(String, Function, long)} for one lock: on each node the call queues behind
     * this JVM's earlier calls for that lock (a force-release never overtakes a release still in flight).
     */
    public <T> List<NodeReply<T>> onEveryNode(
            String what, String lockName, Function<RedisNodeClient, T> call, long timeoutMillis) {
        if (fanOut == null) {
            try {
                return List.of(new NodeReply<>(0, call.apply(nodes.get(0)), null));
            } catch (LockStoreException e) {
                return List.of(new NodeReply<>(0, null, e));
            }
        }
        return fanOut.call(what, lockName, call, timeoutMillis, x -> true, 0);
    }

    /**
     * Runs {@code call} on the nodes in order and returns the first answer: for what only the first
     * node has (events, activity counts: every client writes them there), so that a node that is down
     * does not hide what the next one has. Each call is bounded by that node's Redis timeout.
     *
     * @throws LockStoreException when no node answered: the first node's error, the others' suppressed
     */
    public <T> T firstAnswering(Function<RedisNodeClient, T> call) {
        LockStoreException failure = null;
        for (RedisNodeClient node : nodes) {
            try {
                return call.apply(node);
            } catch (LockStoreException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    /** The fan-out of a multi-node deployment (Redlock's calls, with their early decisions). */
    NodeFanOut fanOut() {
        if (fanOut == null) {
            throw new IllegalStateException("a single-node deployment has no fan-out");
        }
        return fanOut;
    }

    /** Redlock's pipelined acquire and release, or null (see {@link RedlockPipelines}). */
    RedlockPipelines pipelines() {
        return pipelines;
    }

    /** Human-readable description with no secrets, e.g. {@code redis://127.0.0.1:6379} or {@code redlock[...]}. */
    public String describe() {
        return switch (topology) {
            case SINGLE -> nodes.get(0).address();
            case CLUSTER -> nodes.get(0).address(); // already "cluster[...]"
            case SENTINEL -> nodes.get(0).address() + watch.current();
            case REDLOCK ->
                "redlock" + nodes.stream().map(RedisNodeClient::address).toList();
        };
    }

    /** Stops the fan-out threads and closes every node's connections. */
    @Override
    public void close() {
        if (watch != null) {
            watch.close();
        }
        if (pipelines != null) {
            pipelines.close();
        }
        if (fanOut != null) {
            fanOut.close();
        }
        nodes.forEach(RedisNodeClient::close);
    }
}
