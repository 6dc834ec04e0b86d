package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.RedisUri;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;

/** Creates the {@link RedisDeployment} for a topology, checks that Redis answers, and the {@link LockStore} on it. */
public final class StoreFactory {
    private static final System.Logger LOG = System.getLogger(StoreFactory.class.getName());
    /** Parallel calls per Redlock node besides acquire and release (refresh, inspection); more only queue on its pool. */
    private static final int REDLOCK_THREADS_PER_NODE = 16;

    private StoreFactory() {}

    /** Which kind of deployment the URIs describe. */
    public enum Topology {
        SINGLE,
        REDLOCK,
        CLUSTER,
        /** A master found (and followed through failovers) through Redis Sentinel. */
        SENTINEL
    }

    /**
     * Connects to the deployment the URIs describe; with {@code verify}, PINGs it so a wrong URI or
     * password fails here (Redlock: unless a majority answers).
     */
    public static RedisDeployment create(
            Topology topology,
            List<RedisUri> uris,
            KeySpace keys,
            ConnectionSettings conn,
            long fenceRetentionMillis,
            boolean verify) {
        RedisDeployment redis = switch (topology) {
            case SINGLE ->
                new RedisDeployment(
                        topology, List.of(RedisClients.node(uris.get(0), conn, keys, fenceRetentionMillis)), keys, 1);
            case REDLOCK -> redlock(uris, keys, conn, fenceRetentionMillis);
            case CLUSTER -> cluster(uris, keys, conn, fenceRetentionMillis);
            case SENTINEL ->
                throw new IllegalArgumentException("a Sentinel deployment needs its master's name: "
                        + "use StoreFactory.sentinel(masterName, ...)");
        };
        if (verify) {
            verify(redis);
        }
        return redis;
    }

    /**
     * Connects to the master that the sentinels name {@code masterName} and follows it through failovers
     * (pooled connections only). The sentinel URIs' user, password, TLS and database (which must agree) are
     * the master's; the sentinels get the TLS, and the credentials unless {@code SentinelCredentials} finds
     * they need none. With {@code verify}, PINGs the master.
     *
     * @throws LockStoreException no sentinel answers, or none knows {@code masterName}
     */
    public static RedisDeployment sentinel(
            String masterName,
            List<RedisUri> sentinels,
            KeySpace keys,
            ConnectionSettings conn,
            long fenceRetentionMillis,
            boolean verify) {
        RedisUri first = sentinels.get(0);
        for (RedisUri u : sentinels) {
            if (u.tls() != first.tls()
                    || u.database() != first.database()
                    || !Objects.equals(u.user(), first.user())
                    || !Objects.equals(u.password(), first.password())) {
                throw new IllegalArgumentException(
                        "sentinel URIs " + u + " and " + first + " differ in scheme, user,"
                                + " password or database: give every sentinel URI the same ones (they apply to the master too)");
            }
        }
        String address = "sentinel[" + masterName + "@"
                + String.join(",", sentinels.stream().map(RedisUri::toString).toList()) + "]";
        List<HostAndPort> nodes = sentinels.stream()
                .map(u -> new HostAndPort(u.host(), u.port()))
                .distinct()
                .toList();
        JedisClientConfig sentinelConfig = SentinelCredentials.choose(masterName, nodes, first, conn);
        RedisSentinelClient client;
        try {
            client = RedisSentinelClient.builder()
                    .masterName(masterName)
                    .sentinels(new LinkedHashSet<>(nodes))
                    .sentinelClientConfig(sentinelConfig)
                    .clientConfig(RedisClients.clientConfig(first, conn))
                    .poolConfig(RedisClients.poolConfig(conn))
                    .build();
        } catch (RuntimeException e) {
            throw new NodeException(
                    address,
                    "Redis Sentinel " + address + " cannot name the master: " + RedisUri.mask(e.getMessage())
                            + ". Check that the sentinels run, their URIs and credentials, and that they monitor a"
                            + " master named '" + masterName + "' (SENTINEL GET-MASTER-ADDR-BY-NAME " + masterName
                            + ").",
                    e);
        }
        SentinelWatch watch = new SentinelWatch(masterName, nodes, sentinelConfig, client);
        RedisNodeClient node = new RedisNodeClient(client, address, keys, fenceRetentionMillis, conn, null);
        RedisDeployment redis = new RedisDeployment(Topology.SENTINEL, List.of(node), keys, 1, watch, null);
        if (verify) {
            verify(redis);
        }
        return redis;
    }

    /** The store on a deployment: Redlock over several nodes, else one node's (or one cluster's) scripts. */
    public static LockStore store(RedisDeployment redis, ConnectionSettings conn) {
        return redis.topology() == Topology.REDLOCK
                ? new RedlockStore(redis, conn.timeout().toMillis())
                : new RedisLockStore(redis);
    }

    private static RedisDeployment redlock(
            List<RedisUri> uris, KeySpace keys, ConnectionSettings conn, long fenceRetention) {
        RedlockRules.checkNodeCount(uris.size());
        List<RedisNodeClient> nodes = new ArrayList<>();
        List<Supplier<SharedConnection.Socket>> pipelined = new ArrayList<>();
        for (RedisUri uri : uris) {
            HostAndPort address = new HostAndPort(uri.host(), uri.port());
            JedisClientConfig config = RedisClients.clientConfig(uri, conn);
            pipelined.add(() -> new SharedConnection.Socket(address, config)); // acquire and release
            nodes.add(new RedisNodeClient(
                    RedisClients.single(uri, conn), uri.toString(), keys, fenceRetention, conn, null));
        }
        return new RedisDeployment(
                Topology.REDLOCK,
                nodes,
                keys,
                Math.min(conn.maxConnections(), REDLOCK_THREADS_PER_NODE),
                null,
                RedlockPipelines.of(nodes, pipelined, conn.timeout().toMillis()));
    }

    private static RedisDeployment cluster(
            List<RedisUri> uris, KeySpace keys, ConnectionSettings conn, long fenceRetention) {
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
            throw new NodeException(
                    address,
                    "Redis Cluster " + address + " is unreachable or not a cluster: " + e.getMessage()
                            + ". Check that the seed nodes run with cluster-enabled yes and the URIs are right.",
                    e);
        }
        RedisNodeClient node = RedisNodeClient.cluster(client, address, uris.get(0), conn, keys, fenceRetention);
        return new RedisDeployment(Topology.CLUSTER, List.of(node), keys, 1, new ClusterWatch(client), null);
    }

    /**
     * PINGs every node; fails unless a quorum answers (a Redlock minority down is logged and
     * tolerated) and then closes the deployment.
     */
    private static void verify(RedisDeployment redis) {
        List<String> down = new ArrayList<>();
        LockStoreException first = null;
        for (RedisNodeClient node : redis.nodes()) {
            try {
                node.call("answer PING", () -> node.redis().ping());
            } catch (LockStoreException e) {
                down.add(e.getMessage());
                first = first == null ? e : first;
            }
        }
        if (redis.tooManyFailures(down.size())) {
            redis.close();
            if (redis.size() == 1) {
                throw first; // one node: its own message says what to fix
            }
            throw new LockStoreException("Redlock needs " + redis.quorum() + " of " + redis.size() + " nodes but only "
                    + (redis.size() - down.size()) + " answer: " + String.join("; ", down));
        }
        if (!down.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "Redlock starts with " + down.size() + " node(s) down: " + down);
        }
    }
}
