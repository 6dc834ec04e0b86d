package dev.lockwarden.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension running real redis-server processes for a test class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis = RedisServerExtension.nodes(1);     // or .nodes(5), .cluster(3),
 *                                                                             // .nodes(1).withArgs("--requirepass", "secret")
 * }</pre>
 *
 * <p>Servers start before all tests of the class and stop after them (also when tests fail). Before
 * each test, nodes that an earlier test paused are resumed and killed ones are restarted on their
 * port (empty data); in cluster mode the extension then waits for {@code cluster_state:ok}. Data is
 * not flushed automatically: call {@link #flushAll()} in {@code @BeforeEach} for isolation.
 *
 * <p>Must be registered on a {@code static} field. Nested test classes share the servers.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {

    private final int count;
    private final boolean clusterMode;
    private final List<String> args = new ArrayList<>();
    private RedisBinary binary;

    private List<RedisNode> nodes = List.of();
    private RedisCluster cluster;
    private int classesUsing; // > 1 with @Nested classes

    private RedisServerExtension(int count, boolean clusterMode) {
        if (count < 1) {
            throw new IllegalArgumentException("need at least one node: " + count);
        }
        this.count = count;
        this.clusterMode = clusterMode;
    }

    /**
     * {@return {@code count} independent standalone servers (e.g. 5 for Redlock)}
     *
     * @param count the number of servers
     */
    public static RedisServerExtension nodes(int count) {
        return new RedisServerExtension(count, false);
    }

    /**
     * {@return a Redis Cluster of {@code masters} masters, no replicas}
     *
     * @param masters the number of master nodes (at least 3)
     */
    public static RedisServerExtension cluster(int masters) {
        return new RedisServerExtension(masters, true);
    }

    /**
     * Extra redis-server arguments for every node.
     *
     * @param extraArgs the arguments, e.g. {@code "--requirepass", "secret"}
     * @return this extension
     */
    public synchronized RedisServerExtension withArgs(String... extraArgs) {
        requireNotStarted();
        args.addAll(List.of(extraArgs));
        return this;
    }

    /**
     * Use this binary instead of {@link RedisBinary#detect()}.
     *
     * @param redisBinary the redis-server every node runs
     * @return this extension
     */
    public synchronized RedisServerExtension withBinary(RedisBinary redisBinary) {
        requireNotStarted();
        this.binary = redisBinary;
        return this;
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (classesUsing++ > 0) {
            return;
        }
        try {
            start();
        } catch (RuntimeException | Error e) {
            classesUsing--;
            stop();
            throw e;
        }
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (classesUsing > 0 && --classesUsing == 0) {
            stop();
        }
    }

    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        if (nodes.isEmpty()) {
            throw new ExtensionConfigurationException(
                    "RedisServerExtension is not started: register it on a static field with @RegisterExtension");
        }
        restoreAll();
    }

    private void start() {
        RedisBinary bin = binary != null ? binary : RedisBinary.detect();
        if (clusterMode) {
            cluster = new RedisCluster(count, bin, args.toArray(String[]::new)).start();
            nodes = cluster.nodes();
        } else {
            List<RedisNode> started = new ArrayList<>();
            nodes = started; // so stop() sees the partial list on failure
            for (int i = 0; i < count; i++) {
                RedisNode node = new RedisNode(bin, args);
                started.add(node);
                node.start();
            }
            nodes = List.copyOf(started);
        }
    }

    private void stop() {
        try {
            if (cluster != null) {
                cluster.close();
            } else {
                for (RedisNode node : nodes) {
                    node.stop();
                }
            }
        } finally {
            cluster = null;
            nodes = List.of();
        }
    }

    /**
     * Resumes paused nodes and restarts killed ones (same port, empty data); in cluster mode then waits
     * for {@code cluster_state:ok}. Runs automatically before each test.
     */
    public synchronized void restoreAll() {
        boolean changed = false;
        for (RedisNode node : nodes) {
            if (node.isPaused()) {
                node.resume();
                changed = true;
            }
            if (!node.isRunning()) {
                node.restart();
                changed = true;
            }
        }
        if (changed && cluster != null) {
            cluster.awaitClusterOk(RedisCluster.FORM_TIMEOUT);
        }
    }

    /** FLUSHALL on every running, non-paused node. */
    public synchronized void flushAll() {
        for (RedisNode node : nodes) {
            if (node.isRunning() && !node.isPaused()) {
                node.command("FLUSHALL");
            }
        }
    }

    /**
     * {@return node {@code i} (0-based)}
     *
     * @param i the node's index, from 0
     */
    public synchronized RedisNode node(int i) {
        requireStarted();
        return nodes.get(i);
    }

    /** {@return all nodes} */
    public synchronized List<RedisNode> nodes() {
        requireStarted();
        return nodes;
    }

    /** {@return URI of the first node, {@code redis://127.0.0.1:PORT}} */
    public String uri() {
        return node(0).uri();
    }

    /** {@return URIs of all nodes} */
    public List<String> uris() {
        return nodes().stream().map(RedisNode::uri).collect(Collectors.toUnmodifiableList());
    }

    /** {@return the cluster, in cluster mode} */
    public synchronized RedisCluster cluster() {
        requireStarted();
        if (cluster == null) {
            throw new IllegalStateException("not in cluster mode: use RedisServerExtension.cluster(n)");
        }
        return cluster;
    }

    private void requireStarted() {
        if (nodes.isEmpty()) {
            throw new IllegalStateException("Redis servers are not running (outside the test class lifecycle?)");
        }
    }

    private void requireNotStarted() {
        if (!nodes.isEmpty()) {
            throw new IllegalStateException("already started");
        }
    }
}
