package dev.lockwarden.bench;

import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * One connection-pool size for every contender, so no library wins by having more connections
 * than another ({@code -Dbench.pool=N}, default 64: above the 16 threads of the widest scenario).
 * The size and each library's threads are printed in the report's set-up section.
 */
final class Pools {
    /** Connections per node for every pooled contender (Jedis pools, Lockwarden, Redisson). */
    static final int SIZE = Integer.getInteger("bench.pool", 64);
    /** Redisson's Netty event-loop threads (its default is 2 x cores; printed, not tuned). */
    static final int REDISSON_NETTY_THREADS = Integer.getInteger("bench.redisson-netty-threads", 0);

    private Pools() {}

    /** A Jedis client of one local node with a pool of {@link #SIZE} connections. */
    static RedisClient jedis(int port) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(SIZE);
        pool.setMaxIdle(SIZE);
        pool.setMinIdle(0);
        return RedisClient.builder()
                .hostAndPort("127.0.0.1", port)
                .poolConfig(pool)
                .build();
    }

    /** The line the report prints under "Set-up". */
    static String describe(int threads) {
        int netty = REDISSON_NETTY_THREADS > 0
                ? REDISSON_NETTY_THREADS
                : 2 * Runtime.getRuntime().availableProcessors();
        return "Connection pools: " + SIZE
                + " connections per node for every contender (plain snippet, FencingLock and ShedLock: Jedis "
                + "RedisClient pool maxTotal=" + SIZE + "; Lockwarden maxConnections=" + SIZE
                + " (its acquire and release calls share one pipelined connection per node, the other calls use the pool)"
                + "; Redisson connectionPoolSize=" + SIZE + ", Netty threads=" + netty
                + "); widest scenario " + threads + " threads.";
    }
}
