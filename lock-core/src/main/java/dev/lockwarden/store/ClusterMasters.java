package dev.lockwarden.store;

import dev.lockwarden.config.RedisUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * What a {@link RedisNodeClient} on a Redis Cluster needs beyond the cluster client (which routes each script
 * and pipeline by its hash-tagged keys): the masters, for SCAN (which is per node) through a small client per
 * master, created on first use and kept while the master is part of the cluster, and the master of a slot.
 */
final class ClusterMasters implements AutoCloseable {
    private final RedisClusterClient cluster;
    private final RedisUri seed;
    private final ConnectionSettings settings;
    private final Map<String, RedisClient> masters = new ConcurrentHashMap<>();

    ClusterMasters(RedisClusterClient cluster, RedisUri seed, ConnectionSettings settings) {
        this.cluster = cluster;
        this.seed = seed;
        this.settings = settings;
    }

    /** One connection per master, in a stable (address) order, so a page cursor stays meaningful. */
    List<UnifiedJedis> scanTargets(NodeCalls calls) {
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
            String role = calls.run("read the role of cluster node " + a, 0, true, () -> c.info("replication"));
            if (role.contains("role:master")) {
                out.add(c);
            }
        }
        return out;
    }

    /** See {@link RedisNodeClient#masterOf(String)}. */
    String masterOf(String key, NodeCalls calls) {
        int slot = JedisClusterCRC16.getSlot(key);
        HostAndPort hp = calls.run("find the master of slot " + slot, 0, true, () -> {
            try (Connection c = cluster.getConnectionFromSlot(slot)) {
                return c.getHostAndPort();
            }
        });
        return new RedisUri(hp.getHost(), hp.getPort(), seed.user(), seed.password(), 0, seed.tls()).toString();
    }

    private RedisClient clientOf(String address) {
        HostAndPort hp = HostAndPort.from(address);
        return RedisClients.single(
                new RedisUri(hp.getHost(), hp.getPort(), seed.user(), seed.password(), 0, seed.tls()),
                new ConnectionSettings(settings.timeout(), 2, settings.sslSocketFactory()));
    }

    @Override
    public void close() {
        masters.values().forEach(RedisClient::close);
        masters.clear();
    }
}
