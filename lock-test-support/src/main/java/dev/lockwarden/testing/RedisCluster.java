package dev.lockwarden.testing;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of N masters, optionally with replicas, on 127.0.0.1, formed with plain CLUSTER
 * commands (SET-CONFIG-EPOCH, ADDSLOTS, MEET, REPLICATE), so neither {@code redis-cli} nor Redis 7
 * is needed. {@link ClusterFailover} kills or fails over masters of a cluster with replicas.
 *
 * <p>Nodes run with {@code --cluster-node-timeout 3000} so that a killed or paused master is noticed,
 * and forgiven after it is back, within seconds. Use {@link #awaitClusterOk(Duration)} after a fault.
 */
public final class RedisCluster implements AutoCloseable {

    /** Number of hash slots in a Redis Cluster. */
    public static final int SLOTS = 16384;

    /** How long {@link #start()} waits for the cluster to converge. */
    public static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);

    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

    private final int masters;
    private final List<RedisNode> nodes;

    /**
     * A cluster of {@code masters} nodes using {@link RedisBinary#detect()}; call {@link #start()}.
     *
     * @param masters the number of masters, at least 1
     */
    public RedisCluster(int masters) {
        this(masters, RedisBinary.detect());
    }

    /**
     * A cluster of {@code masters} nodes; {@code extraArgs} are passed to every redis-server.
     *
     * @param masters   the number of masters, at least 1
     * @param binary    the redis-server to run
     * @param extraArgs further arguments for every node
     */
    public RedisCluster(int masters, RedisBinary binary, String... extraArgs) {
        this(masters, 0, binary, extraArgs);
    }

    /**
     * A cluster of {@code masters} masters with {@code replicasPerMaster} replicas each; replica
     * {@code j} of master {@code i} is node {@code masters + i * replicasPerMaster + j}.
     *
     * @param masters           the number of masters, at least 1
     * @param replicasPerMaster replicas of each master, 0 or more
     * @param binary            the redis-server to run
     * @param extraArgs         further arguments for every node
     */
    public RedisCluster(int masters, int replicasPerMaster, RedisBinary binary, String... extraArgs) {
        if (masters < 1 || replicasPerMaster < 0) {
            throw new IllegalArgumentException(
                    "need masters >= 1 and replicasPerMaster >= 0: " + masters + ", " + replicasPerMaster);
        }
        this.masters = masters;
        List<String> args = new ArrayList<>(List.of("--cluster-enabled", "yes", "--cluster-node-timeout", "3000"));
        args.addAll(List.of(extraArgs));
        List<RedisNode> list = new ArrayList<>();
        for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
            list.add(new RedisNode(binary, args));
        }
        this.nodes = List.copyOf(list);
    }

    /**
     * Starts the nodes, splits the slots evenly between the masters, joins them, makes the replicas
     * replicate their masters and waits until every node reports {@code cluster_state:ok} with the
     * same view of the cluster and every replica's link is up. Stops everything on failure.
     *
     * @return this cluster
     */
    public synchronized RedisCluster start() {
        try {
            for (RedisNode node : nodes) {
                node.start();
            }
            int n = masters;
            for (int i = 0; i < nodes.size(); i++) {
                // distinct epochs up front, as redis-cli does, so no epoch collision has to be resolved
                nodes.get(i).command("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
            }
            for (int i = 0; i < n; i++) {
                RedisNode node = nodes.get(i);
                int from = i * SLOTS / n;
                int to = (i + 1) * SLOTS / n - 1;
                List<String> cmd = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
                for (int slot = from; slot <= to; slot++) {
                    cmd.add(Integer.toString(slot));
                }
                node.command(cmd.toArray(String[]::new));
            }
            for (int i = 1; i < nodes.size(); i++) {
                nodes.get(0)
                        .command(
                                "CLUSTER",
                                "MEET",
                                RedisNode.HOST,
                                Integer.toString(nodes.get(i).port()));
            }
            awaitClusterOk(FORM_TIMEOUT);
            if (nodes.size() > masters) {
                attachReplicas();
            }
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Waits until every node reports {@code cluster_state:ok}, all slots covered, all nodes known and
     * connected, and all nodes agree on ids, addresses and slot ownership.
     *
     * @param timeout how long to wait
     * @throws IllegalStateException if a node is not running or the cluster is not ok within the timeout
     */
    public void awaitClusterOk(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String problem;
        do {
            problem = problem();
            if (problem == null) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the cluster", e);
            }
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException("cluster not ok within " + timeout.toMillis() + " ms: " + problem);
    }

    private void attachReplicas() {
        int perMaster = (nodes.size() - masters) / masters;
        for (int r = masters; r < nodes.size(); r++) {
            RedisNode master = nodes.get((r - masters) / perMaster);
            nodes.get(r).command("CLUSTER", "REPLICATE", master.command("CLUSTER", "MYID"));
        }
        awaitClusterOk(FORM_TIMEOUT);
        for (int r = masters; r < nodes.size(); r++) {
            Replication.awaitLinkUp(
                    nodes.get(r), nodes.get((r - masters) / perMaster).port(), SYNC_TIMEOUT);
        }
    }

    /** Why the cluster is not ok yet, or null if it is. */
    private String problem() {
        for (RedisNode node : nodes) {
            if (!node.isRunning()) {
                throw new IllegalStateException("cluster node not running: " + node);
            }
        }
        Set<String> firstView = null;
        for (RedisNode node : nodes) {
            String info;
            String clusterNodes;
            try {
                info = node.command(POLL_TIMEOUT, "CLUSTER", "INFO");
                clusterNodes = node.command(POLL_TIMEOUT, "CLUSTER", "NODES");
            } catch (UncheckedIOException | RedisReplyException e) {
                return node + ": " + e.getMessage();
            }
            for (String expected : List.of(
                    "cluster_state:ok",
                    "cluster_slots_assigned:" + SLOTS,
                    "cluster_slots_ok:" + SLOTS,
                    "cluster_known_nodes:" + nodes.size())) {
                if (!info.contains(expected + "\r\n")) {
                    return node + " lacks " + expected + " in CLUSTER INFO:\n" + info;
                }
            }
            Set<String> view = new TreeSet<>();
            for (String line : clusterNodes.split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                // <id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong> <epoch> <link> <slot>...
                String[] f = line.trim().split(" ");
                String flags = f[2];
                if (flags.contains("fail")
                        || flags.contains("handshake")
                        || flags.contains("noaddr")
                        || !"connected".equals(f[7])) {
                    return node + " sees an unhealthy node: " + line;
                }
                String address = f[1].split(",")[0];
                view.add(
                        f[0] + " " + address + " " + String.join(" ", List.of(f).subList(8, f.length)));
            }
            if (firstView == null) {
                firstView = view;
            } else if (!firstView.equals(view)) {
                return "nodes disagree:\n" + firstView + "\nvs " + node + ":\n" + view;
            }
        }
        return null;
    }

    /**
     * Every node: the masters as started, in slot order (node 0 owns the first slots), then the
     * replicas. Roles change with a failover; {@link ClusterFailover} tells the current ones.
     *
     * @return every node, unmodifiable
     */
    public List<RedisNode> nodes() {
        return nodes;
    }

    /**
     * Node {@code i}, in the order of {@link #nodes()}.
     *
     * @param i the node's index
     * @return that node
     */
    public RedisNode node(int i) {
        return nodes.get(i);
    }

    /** {@return the number of masters as started} */
    public int masterCount() {
        return masters;
    }

    /** {@return {@code redis://127.0.0.1:PORT} of every node, for a cluster client's seed list} */
    public List<String> seedUris() {
        return nodes.stream().map(RedisNode::uri).collect(Collectors.toUnmodifiableList());
    }

    /** Stops every node and deletes their temp dirs. */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (RedisNode node : nodes) {
            try {
                node.stop();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "RedisCluster" + seedUris();
    }
}
