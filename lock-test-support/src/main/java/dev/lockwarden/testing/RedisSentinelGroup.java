package dev.lockwarden.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * A Sentinel deployment on 127.0.0.1: one master, two replicas and three sentinels (quorum 2)
 * monitoring it as {@value #MASTER_NAME}, with {@code down-after-milliseconds} 1000.
 *
 * <p>With {@code relayed}, each replica replicates through its own {@link ReplicationRelay}, so
 * {@link #holdReplication()} keeps new writes on the master only; the relays sit between the first
 * master and its replicas (after a failover the sentinels connect the replicas to the new master
 * directly). Sentinel's {@code failover-timeout} is 60 s, so within a minute the sentinels leave
 * the relayed replicas as they are.
 *
 * <p>Every wait is bounded. If the binary cannot run as a sentinel, {@link #start()} aborts the
 * calling test (a JUnit assumption) with the reason.
 */
public final class RedisSentinelGroup implements AutoCloseable {

    /** The name the sentinels monitor the master under. */
    public static final String MASTER_NAME = "mymaster";

    /** How long {@link #start()} waits for replicas and sentinels to know each other. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private static final int REPLICAS = 2;
    private static final int SENTINELS = 3;

    private final RedisBinary binary;
    private final boolean relayed;
    private final List<RedisNode> dataNodes = new ArrayList<>();
    private final List<ReplicationRelay> relays = new ArrayList<>();
    private final List<RedisNode> sentinels = new ArrayList<>();
    private Path configDir;

    /**
     * A group on {@link RedisBinary#detect()}.
     *
     * @param relayed whether the replicas connect through {@link ReplicationRelay}s
     */
    public RedisSentinelGroup(boolean relayed) {
        this(RedisBinary.detect(), relayed);
    }

    /**
     * A group on the given binary.
     *
     * @param binary  the redis-server to run, also as sentinel
     * @param relayed whether the replicas connect through {@link ReplicationRelay}s
     */
    public RedisSentinelGroup(RedisBinary binary, boolean relayed) {
        this.binary = binary;
        this.relayed = relayed;
    }

    /**
     * Starts master, replicas and sentinels and waits (≤ 30 s) until the replicas are in sync and
     * every sentinel knows both replicas and both other sentinels. Stops everything on failure.
     *
     * @return this group
     */
    public synchronized RedisSentinelGroup start() {
        try {
            configDir = Files.createTempDirectory("lockwarden-sentinel-");
            RedisNode master = new RedisNode(binary).start();
            dataNodes.add(master);
            for (int i = 0; i < REPLICAS; i++) {
                int upstream = master.port();
                if (relayed) {
                    ReplicationRelay relay = ReplicationRelay.to(master.port());
                    relays.add(relay);
                    upstream = relay.port();
                }
                dataNodes.add(new RedisNode(binary, "--replicaof", RedisNode.HOST, Integer.toString(upstream)).start());
            }
            for (int i = 0; i < SENTINELS; i++) {
                sentinels.add(startSentinel(i, master.port()));
            }
            awaitReady(READY_TIMEOUT);
            return this;
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot write the sentinel configuration", e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private RedisNode startSentinel(int index, int masterPort) throws IOException {
        Path conf = configDir.resolve("sentinel-" + index + ".conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "sentinel monitor " + MASTER_NAME + " " + RedisNode.HOST + " " + masterPort + " 2",
                        "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                        "sentinel failover-timeout " + MASTER_NAME + " 60000",
                        "sentinel parallel-syncs " + MASTER_NAME + " 2",
                        ""));
        RedisNode sentinel = new RedisNode(binary, conf, List.of("--sentinel"));
        try {
            sentinel.start();
        } catch (IllegalStateException e) {
            if (index == 0) {
                Assumptions.abort(binary + " cannot run as a Redis Sentinel (install redis-server 7: "
                        + "sudo apt-get install -y redis-server): " + e.getMessage());
            }
            throw e;
        }
        if (!sentinel.command("INFO", "server").contains("redis_mode:sentinel")) {
            sentinel.stop();
            Assumptions.abort(binary + " ignores --sentinel: it cannot run as a Redis Sentinel");
        }
        return sentinel;
    }

    /**
     * Waits until every running sentinel names the same running master, reaches its quorum, and
     * sees every other running data node as a healthy replica whose link to the master is up.
     *
     * @param timeout how long to wait
     */
    public void awaitReady(Duration timeout) {
        Replication.await(timeout, () -> {
            RedisNode master = master();
            if (!Replication.isMaster(master)) {
                return "the sentinels' master " + master + " is not a running master";
            }
            List<RedisNode> replicas =
                    dataNodes.stream().filter(n -> n != master && n.isRunning()).collect(Collectors.toList());
            for (RedisNode replica : replicas) {
                var info = Replication.info(replica);
                if (!"slave".equals(info.get("role")) || !"up".equals(info.get("master_link_status"))) {
                    return replica + " is not a replica with its link up: " + info;
                }
            }
            for (RedisNode sentinel : runningSentinels()) {
                SentinelView view = SentinelView.of(sentinel);
                String problem = view.problem(
                        master.port(), replicas.size(), runningSentinels().size() - 1);
                if (problem != null) {
                    return sentinel + ": " + problem;
                }
            }
            return null;
        });
    }

    /** {@return the data node the first answering sentinel names as master (it may be down already)} */
    public RedisNode master() {
        RuntimeException failure = null;
        for (RedisNode sentinel : runningSentinels()) {
            try {
                return dataNode(SentinelView.masterPort(sentinel));
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        throw new IllegalStateException("no sentinel names a master", failure);
    }

    /**
     * SIGKILLs the current master (restart it with {@link #rejoin(RedisNode)}).
     *
     * @return the killed master
     */
    public RedisNode killMaster() {
        RedisNode master = master();
        master.kill();
        return master;
    }

    /**
     * Waits until every running sentinel names a running master other than {@code old} and that
     * node reports {@code role:master}; returns it.
     *
     * @param old     the master before the failover
     * @param timeout how long to wait
     * @return the new master
     */
    public RedisNode awaitPromotion(RedisNode old, Duration timeout) {
        Replication.await(timeout, () -> {
            for (RedisNode sentinel : runningSentinels()) {
                int port = SentinelView.masterPort(sentinel);
                if (port == old.port()) {
                    return sentinel + " still names " + old;
                }
                if (!Replication.isMaster(dataNode(port))) {
                    return sentinel + " names " + port + ", which is not a master yet";
                }
            }
            return null;
        });
        return master();
    }

    /**
     * Restarts a killed data node (empty) as a replica of the current master and waits until the
     * group is {@linkplain #awaitReady ready} again.
     *
     * @param node    a killed data node, not the current master
     * @param timeout how long to wait for the group to be ready
     */
    public void rejoin(RedisNode node, Duration timeout) {
        if (node == master()) {
            throw new IllegalArgumentException(node + " is the current master");
        }
        // let the failover finish first (every sentinel agrees, the other replica follows the new master): a node
        // restarted while it is still under way was seen promoted again by Redis 6.2's sentinels
        awaitReady(timeout);
        RedisNode master = master();
        node.restart();
        node.command("REPLICAOF", RedisNode.HOST, Integer.toString(master.port()));
        awaitReady(timeout);
    }

    /**
     * Same as {@link #rejoin(RedisNode, Duration)} with {@link #READY_TIMEOUT}.
     *
     * @param node a killed data node, not the current master
     */
    public void rejoin(RedisNode node) {
        rejoin(node, READY_TIMEOUT);
    }

    /** Holds back the replication stream of every relay (only with {@code relayed}). */
    public void holdReplication() {
        requireRelayed();
        relays.forEach(ReplicationRelay::hold);
    }

    /** Lets every relay's replication stream flow again. */
    public void flowReplication() {
        requireRelayed();
        relays.forEach(ReplicationRelay::flow);
    }

    private void requireRelayed() {
        if (!relayed) {
            throw new IllegalStateException("this group was created without relays: new RedisSentinelGroup(true)");
        }
    }

    /** {@return the master (index 0, as started) and the two replicas} */
    public List<RedisNode> dataNodes() {
        return List.copyOf(dataNodes);
    }

    /** {@return the relays in front of the first master, one per replica (empty unless relayed)} */
    public List<ReplicationRelay> relays() {
        return List.copyOf(relays);
    }

    /** {@return the three sentinel processes} */
    public List<RedisNode> sentinels() {
        return List.copyOf(sentinels);
    }

    /** {@return {@code redis://127.0.0.1:PORT} of every sentinel} */
    public List<String> sentinelUris() {
        return sentinels.stream().map(RedisNode::uri).collect(Collectors.toUnmodifiableList());
    }

    /**
     * The data node on {@code port}.
     *
     * @param port a data node's port
     * @return that node
     * @throws IllegalStateException if no data node of this group listens there
     */
    public RedisNode dataNode(int port) {
        return dataNodes.stream()
                .filter(n -> n.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no data node on port " + port + " in " + this));
    }

    private List<RedisNode> runningSentinels() {
        return sentinels.stream().filter(RedisNode::isRunning).collect(Collectors.toList());
    }

    /** Stops sentinels, data nodes and relays, and deletes the configuration. */
    @Override
    public synchronized void close() {
        sentinels.forEach(RedisNode::stop);
        dataNodes.forEach(RedisNode::stop);
        relays.forEach(ReplicationRelay::close);
        RedisNode.deleteDir(configDir);
    }

    @Override
    public String toString() {
        return "RedisSentinelGroup[data " + dataNodes + ", sentinels " + sentinelUris() + "]";
    }
}
