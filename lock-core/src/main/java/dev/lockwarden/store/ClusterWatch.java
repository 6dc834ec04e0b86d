package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Tells the lock manager when a Redis Cluster failed over, so that it re-checks every lock it holds on
 * the new slot owners at once: a failover (a replica promoted, by election or {@code CLUSTER FAILOVER})
 * raises the cluster's current epoch, which every node reports in {@code CLUSTER INFO}. One thread (started
 * by the first listener) asks
 * one node every {@value #POLL_MILLIS} ms — the node that answered last, else the next one the client
 * knows — and, when the epoch went up, refreshes the client's slot map before it tells the listeners.
 * Nothing in Cluster announces a failover to clients (Sentinel's {@code +switch-master} has no
 * counterpart), and a lock's next refresh can be a third of its TTL away.
 */
final class ClusterWatch implements TopologyWatch {
    private static final System.Logger LOG = System.getLogger(ClusterWatch.class.getName());
    static final long POLL_MILLIS = 250;
    private static final String EPOCH = "cluster_current_epoch:";

    private final RedisClusterClient cluster;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private Thread thread;
    private volatile boolean closed;
    private String lastGood;
    private long epoch = -1;
    private boolean warnedRefused;

    ClusterWatch(RedisClusterClient cluster) {
        this.cluster = cluster;
    }

    /** The first listener starts the polling thread: a deployment nobody listens to costs no command. */
    @Override
    public synchronized void onSwitch(Consumer<String> listener) {
        listeners.add(listener);
        if (thread == null && !closed) {
            thread = new Thread(this::run, "lockwarden-cluster-watch");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
    public String current() {
        return "";
    }

    private void run() {
        while (!closed) {
            long now = readEpoch();
            if (now > epoch) {
                if (epoch >= 0) {
                    changed(now);
                }
                epoch = now;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return; // closed
            }
        }
    }

    /** The current epoch from the first node that answers; -1 if none did. */
    private long readEpoch() {
        Map<String, ConnectionPool> nodes = cluster.getClusterNodes();
        List<String> order = new ArrayList<>(nodes.keySet());
        if (lastGood != null && order.remove(lastGood)) {
            order.add(0, lastGood);
        }
        for (String address : order) {
            ConnectionPool pool = nodes.get(address);
            if (pool == null || closed) {
                continue;
            }
            try (Connection c = pool.getResource()) {
                String info = new Jedis(c).clusterInfo();
                lastGood = address;
                return parse(info);
            } catch (JedisDataException e) {
                refused(address, e);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "cluster node " + address + " did not answer CLUSTER INFO", e);
            }
        }
        return -1;
    }

    /**
     * An error reply (an ACL without {@code +cluster|info}) is no passing outage: without the epoch no
     * failover is noticed before a lock's next refresh, so say so once, loudly.
     */
    private void refused(String address, JedisDataException e) {
        if (!warnedRefused) {
            warnedRefused = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "cluster node " + address + " refused CLUSTER INFO (" + e.getMessage() + "): a failover is noticed"
                            + " only at each lock's next refresh, not at once; grant the client's Redis user"
                            + " +cluster|info (docs/acl.md)");
        } else {
            LOG.log(System.Logger.Level.DEBUG, "cluster node " + address + " refused CLUSTER INFO", e);
        }
    }

    static long parse(String clusterInfo) {
        for (String line : clusterInfo.split("\r?\n")) {
            if (line.startsWith(EPOCH)) {
                return Long.parseLong(line.substring(EPOCH.length()).trim());
            }
        }
        return -1;
    }

    private void changed(long now) {
        try {
            cluster.refreshClusterTopology(); // so the re-check goes to the new slot owners
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not refresh the cluster's slot map", e);
        }
        TopologyWatch.tell(listeners, "cluster failover (epoch " + epoch + " -> " + now + ")", LOG);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
