package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.RedisUri;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;

/** Creates the {@link LockStore} for a topology and checks that Redis answers. */
public final class StoreFactory {
    private static final System.Logger LOG = System.getLogger(StoreFactory.class.getName());
    /** Parallel calls per Redlock node; more only queue on the node's connection pool. */
    private static final int REDLOCK_THREADS_PER_NODE = 16;

    private StoreFactory() {
    }

    /** Which kind of deployment the URIs describe. */
    public enum Topology { SINGLE, REDLOCK, CLUSTER }

    public static LockStore create(Topology topology, List<RedisUri> uris, KeySpace keys, ConnectionSettings conn,
                                   long fenceRetentionMillis, boolean verify) {
        return switch (topology) {
            case SINGLE -> single(uris.get(0), keys, conn, fenceRetentionMillis, verify);
            case REDLOCK -> redlock(uris, keys, conn, fenceRetentionMillis, verify);
            case CLUSTER -> cluster(uris, keys, conn, fenceRetentionMillis, verify);
        };
    }

    private static LockStore redlock(List<RedisUri> uris, KeySpace keys, ConnectionSettings conn, long fenceRetention,
                                     boolean verify) {
        RedlockStore.checkNodeCount(uris.size());
        List<RedisNodeClient> nodes = new ArrayList<>();
        for (RedisUri uri : uris) {
            nodes.add(new RedisNodeClient(RedisClients.single(uri, conn), uri.toString(), keys, fenceRetention, conn));
        }
        RedlockStore store = new RedlockStore(nodes, Math.min(conn.maxConnections(), REDLOCK_THREADS_PER_NODE),
                conn.timeout().toMillis());
        if (verify) {
            verifyMajority(store);
        }
        return store;
    }

    private static LockStore cluster(List<RedisUri> uris, KeySpace keys, ConnectionSettings conn, long fenceRetention,
                                     boolean verify) {
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        for (RedisUri uri : uris) {
            seeds.add(new HostAndPort(uri.host(), uri.port()));
        }
        String address = "cluster" + uris.stream().map(RedisUri::toString).toList();
        RedisClusterClient client;
        try {
            client = RedisClusterClient.builder()
                    .nodes(seeds)
                    .clientConfig(RedisClients.clientConfig(uris.get(0), conn))
                    .poolConfig(RedisClients.poolConfig(conn))
                    .build();
        } catch (RuntimeException e) {
            throw new LockStoreException("Redis Cluster " + address + " is unreachable or not a cluster: " + e.getMessage()
                    + ". Check that the seed nodes run with cluster-enabled yes and the URIs are right.", e);
        }
        ClusterNodeClient node = new ClusterNodeClient(client, address, uris.get(0), conn, keys, fenceRetention);
        if (verify) {
            verify(node);
        }
        return new RedisLockStore(node);
    }

    /** PINGs every Redlock node; fails unless a majority answers (a minority down is logged and tolerated). */
    private static void verifyMajority(RedlockStore store) {
        List<String> down = new ArrayList<>();
        for (RedisNodeClient node : store.nodes()) {
            try {
                node.call("answer PING", () -> node.redis().ping());
            } catch (LockStoreException e) {
                down.add(e.getMessage());
            }
        }
        if (store.nodes().size() - down.size() < store.quorum()) {
            store.close();
            throw new LockStoreException("Redlock needs " + store.quorum() + " of " + store.nodes().size()
                    + " nodes but only " + (store.nodes().size() - down.size()) + " answer: " + String.join("; ", down));
        }
        if (!down.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "Redlock starts with " + down.size() + " node(s) down: " + down);
        }
    }

    private static LockStore single(RedisUri uri, KeySpace keys, ConnectionSettings conn, long fenceRetention, boolean verify) {
        RedisClient client = RedisClients.single(uri, conn);
        RedisNodeClient node = new RedisNodeClient(client, uri.toString(), keys, fenceRetention, conn);
        if (verify) {
            verify(node);
        }
        return new RedisLockStore(node);
    }

    /** PINGs a node so that a wrong URI or password fails at start-up, not at the first lock. */
    public static void verify(RedisNodeClient node) {
        try {
            node.call("answer PING", () -> node.redis().ping());
        } catch (LockStoreException e) {
            node.close();
            throw e;
        }
    }
}
