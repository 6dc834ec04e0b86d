package dev.lockwarden.store;

import dev.lockwarden.config.RedisUri;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;

/** Builds Jedis clients from our settings: auth (user/ACL), database, TLS, timeouts, pool size. */
public final class RedisClients {
    private RedisClients() {}

    public static JedisClientConfig clientConfig(RedisUri uri, ConnectionSettings s) {
        return config(uri, s, true, true);
    }

    /**
     * The configuration of connections to a sentinel: as {@link #clientConfig} (the URI's TLS and timeouts,
     * and its user and password if {@code credentials}) but no database and no client name, which a sentinel
     * does not have.
     */
    static JedisClientConfig sentinelConfig(RedisUri uri, ConnectionSettings s, boolean credentials) {
        return config(uri, s, false, credentials);
    }

    private static JedisClientConfig config(RedisUri uri, ConnectionSettings s, boolean dataNode, boolean credentials) {
        int timeout = (int) Math.min(Integer.MAX_VALUE, s.timeout().toMillis());
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeout)
                .socketTimeoutMillis(timeout)
                .database(dataNode ? uri.database() : 0)
                .ssl(uri.tls())
                .clientName(dataNode ? "lockwarden" : null);
        if (uri.tls() && s.sslSocketFactory() != null) {
            b.sslSocketFactory(s.sslSocketFactory());
        }
        if (credentials && uri.password() != null) {
            b.user(uri.user()).password(uri.password());
        }
        return b.build();
    }

    /**
     * Connections beyond {@code maxConnections} for users outside the {@link ConnectionGate}: the
     * pub/sub subscription (holds one for good), heartbeat, event writer, inspector pipelines.
     */
    static final int RESERVED_CONNECTIONS = 4;

    public static ConnectionPoolConfig poolConfig(ConnectionSettings s) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(s.maxConnections() + RESERVED_CONNECTIONS);
        pool.setMaxIdle(s.maxConnections() + RESERVED_CONNECTIONS);
        pool.setMinIdle(0);
        pool.setMaxWait(s.timeout());
        pool.setTestWhileIdle(false);
        return pool;
    }

    /**
     * The client of one node (not of a cluster): a pool for every call, and one connection that acquire and
     * release share ({@link SharedConnection}), with the same auth, database, TLS and timeouts.
     */
    static RedisNodeClient node(RedisUri uri, ConnectionSettings s, KeySpace keys, long fenceRetentionMillis) {
        SharedConnection shared = SharedConnection.to(new HostAndPort(uri.host(), uri.port()), clientConfig(uri, s));
        return new RedisNodeClient(single(uri, s), uri.toString(), keys, fenceRetentionMillis, s, shared);
    }

    /** A pooled client of one node. */
    public static RedisClient single(RedisUri uri, ConnectionSettings s) {
        return RedisClient.builder()
                .hostAndPort(uri.host(), uri.port())
                .clientConfig(clientConfig(uri, s))
                .poolConfig(poolConfig(s))
                .build();
    }
}
