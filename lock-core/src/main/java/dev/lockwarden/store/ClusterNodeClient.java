package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockwarden.config.RedisUri;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link RedisNodeClient} on a Redis Cluster. Scripts and pipelines go through Jedis' cluster
 * client, which routes each by its hash-tagged keys (all keys of one lock share a slot). SCAN, which
 * is per node, visits every master through a small client per master, created on first use and
 * kept while the master is part of the cluster.
 */
public final class ClusterNodeClient extends RedisNodeClient {
    private final RedisClusterClient cluster;
    private final RedisUri seed;
    private final ConnectionSettings settings;
    private final Map<String, RedisClient> masters = new ConcurrentHashMap<>();

    public ClusterNodeClient(RedisClusterClient cluster, String address, RedisUri seed, ConnectionSettings settings,
                             KeySpace keys, long fenceRetentionMillis) {
        super(cluster, address, keys, fenceRetentionMillis, settings);
        this.cluster = cluster;
        this.seed = seed;
        this.settings = settings;
    }

    /** One connection per master, in a stable (address) order, so a page cursor stays meaningful. */
    @Override
    public List<UnifiedJedis> scanTargets() {
        List<String> addresses = new ArrayList<>(cluster.getClusterNodes().keySet());
        addresses.sort(null);
        masters.keySet().removeIf(a -> {
            if (addresses.contains(a)) {
                return false;
            }
            masters.get(a).close();
            return true;
        });
        List<UnifiedJedis> out = new ArrayList<>();
        for (String a : addresses) {
            RedisClient c = masters.computeIfAbsent(a, this::clientOf);
            String role = call("read the role of cluster node " + a, () -> c.info("replication"));
            if (role.contains("role:master")) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The master that owns {@code key}'s hash slot, written like the seeds ({@code redis://host:port},
     * user and password masked), from Jedis' slot cache: no round trip unless the cache has no owner
     * for the slot (then Jedis reads the slots again). After a resharding it names the new owner once
     * Jedis has followed the first MOVED.
     *
     * @param key a key of the lock (all of a lock's keys share one slot)
     * @return the owning master, e.g. {@code redis://127.0.0.1:7001}
     */
    public String masterOf(String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        HostAndPort hp = call("find the master of slot " + slot, () -> {
            try (Connection c = cluster.getConnectionFromSlot(slot)) {
                return c.getHostAndPort();
            }
        });
        return new RedisUri(hp.getHost(), hp.getPort(), seed.user(), seed.password(), 0, seed.tls()).toString();
    }

    private RedisClient clientOf(String address) {
        HostAndPort hp = HostAndPort.from(address);
        return RedisClients.single(new RedisUri(hp.getHost(), hp.getPort(), seed.user(), seed.password(), 0,
                seed.tls()), new ConnectionSettings(settings.timeout(), 2, settings.sslSocketFactory()));
    }

    @Override
    public void close() {
        masters.values().forEach(RedisClient::close);
        masters.clear();
        super.close();
    }

    /** Keys of different locks live in different slots: the watchdog refreshes one lock per script call. */
    @Override
    protected boolean singleSlotScriptsOnly() {
        return true;
    }
}
