package dev.lockwarden.testing;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Failovers of a {@link RedisCluster} with replicas: which node serves a key now, a forced
 * {@code CLUSTER FAILOVER TAKEOVER} on a replica, and the wait for a replica to replace a killed
 * master (Redis needs {@code cluster-node-timeout}, 3 s here, plus an election). Every wait is bounded.
 */
public final class ClusterFailover {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final RedisCluster cluster;

    private ClusterFailover(RedisCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Failovers of {@code cluster}.
     *
     * @param cluster the cluster to fail over
     * @return a helper bound to {@code cluster}
     */
    public static ClusterFailover of(RedisCluster cluster) {
        return new ClusterFailover(cluster);
    }

    /**
     * The hash slot of {@code key} ({@code CLUSTER KEYSLOT}, honouring a {@code {hash tag}}).
     *
     * @param key a Redis key
     * @return its slot, 0 to 16383
     */
    public int slotOf(String key) {
        return Integer.parseInt(anyRunning().command(TIMEOUT, "CLUSTER", "KEYSLOT", key));
    }

    /**
     * The running node that reports itself as master of {@code slot} ({@code CLUSTER NODES} "myself").
     *
     * @param slot a hash slot
     * @return the master that owns it
     * @throws IllegalStateException if no running master claims it
     */
    public RedisNode masterOf(int slot) {
        for (RedisNode node : running()) {
            for (String line : node.command(TIMEOUT, "CLUSTER", "NODES").split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length > 8 && f[2].contains("myself") && f[2].contains("master") && owns(f, slot)) {
                    return node;
                }
            }
        }
        throw new IllegalStateException("no running master claims slot " + slot + " in " + cluster);
    }

    /**
     * The master that serves {@code key} now.
     *
     * @param key a Redis key
     * @return the master that owns its slot
     */
    public RedisNode masterOfKey(String key) {
        return masterOf(slotOf(key));
    }

    /**
     * The running nodes that replicate {@code master}.
     *
     * @param master a master of the cluster
     * @return its running replicas, possibly none
     */
    public List<RedisNode> replicasOf(RedisNode master) {
        String port = Integer.toString(master.port());
        return running().stream()
                .filter(n -> {
                    var info = Replication.info(n);
                    return "slave".equals(info.get("role")) && port.equals(info.get("master_port"));
                })
                .collect(Collectors.toList());
    }

    /**
     * Runs {@code CLUSTER FAILOVER TAKEOVER} on {@code replica} (no agreement of other masters, no
     * wait for the old master) and waits until it is master and every running node reports
     * {@code cluster_state:ok}.
     *
     * @param replica the replica to promote
     * @param timeout how long to wait for the promotion and a healthy cluster
     */
    public void takeover(RedisNode replica, Duration timeout) {
        replica.command("CLUSTER", "FAILOVER", "TAKEOVER");
        awaitMaster(replica, timeout);
    }

    /**
     * Waits until one of {@code replicas} (the killed master's replicas, taken before the kill) is
     * master and every running node reports {@code cluster_state:ok}; returns it.
     *
     * @param replicas the candidates for promotion
     * @param timeout  how long to wait
     * @return the promoted replica
     */
    public RedisNode awaitPromotion(List<RedisNode> replicas, Duration timeout) {
        Replication.await(timeout, () -> {
            Optional<RedisNode> promoted =
                    replicas.stream().filter(Replication::isMaster).findFirst();
            return promoted.isEmpty() ? "none of " + replicas + " is master yet" : clusterProblem();
        });
        return replicas.stream().filter(Replication::isMaster).findFirst().orElseThrow();
    }

    private void awaitMaster(RedisNode node, Duration timeout) {
        Replication.await(timeout, () -> Replication.isMaster(node) ? clusterProblem() : node + " is not master yet");
    }

    /** Why a running node does not report {@code cluster_state:ok}, or null. */
    private String clusterProblem() {
        for (RedisNode node : running()) {
            String info = node.command(TIMEOUT, "CLUSTER", "INFO");
            if (!info.contains("cluster_state:ok\r\n")) {
                return node + " is not ok:\n" + info;
            }
        }
        return null;
    }

    private static boolean owns(String[] fields, int slot) {
        for (int i = 8; i < fields.length; i++) {
            String range = fields[i];
            if (range.startsWith("[")) {
                continue; // a slot being migrated
            }
            int dash = range.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
            if (slot >= from && slot <= to) {
                return true;
            }
        }
        return false;
    }

    private List<RedisNode> running() {
        return cluster.nodes().stream()
                .filter(n -> n.isRunning() && !n.isPaused())
                .collect(Collectors.toList());
    }

    private RedisNode anyRunning() {
        return running().stream()
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of " + cluster + " is running"));
    }
}
