package dev.lockwarden.bench;

import dev.lockwarden.testing.RedisBinary;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.Replication;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmarks' Redis servers: {@link RedisNode}s of lock-test-support, the same harness (and the same
 * fallback to the Redis inside embedded-redis when {@code redis-server} is not installed) every module's
 * tests use. Each node binds 127.0.0.1 on a free port without persistence; the harness's shutdown hook
 * also stops them when benchmarks/run's timeout sends SIGTERM.
 */
final class RedisServers implements AutoCloseable {
    private final RedisBinary binary;
    private final List<RedisNode> nodes = new ArrayList<>();

    /** @param binary {@code bench.redis-server}: blank or {@code redis-server} (detect), {@code embedded}, or a path */
    RedisServers(String binary) {
        this.binary = resolve(binary);
        Bench.progress("Redis for the benchmarks: " + this.binary);
    }

    /** Which server binary a {@code bench.redis-server} value names; blank and the bare name mean "detect". */
    static RedisBinary resolve(String configured) {
        String v = configured == null ? "" : configured.trim();
        if (v.isEmpty() || v.equals("redis-server")) {
            return RedisBinary.detect(); // also honours -Dlockwarden.redis.server
        }
        if (v.equalsIgnoreCase("embedded")) {
            return RedisBinary.embedded();
        }
        try {
            return RedisBinary.of(Path.of(v));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "bench.redis-server=" + v + ": not an executable redis-server; "
                            + "give a path, 'embedded', or leave it unset to use redis-server on the PATH (else the embedded one)",
                    e);
        }
    }

    /** The binary every server of this run uses. */
    RedisBinary binary() {
        return binary;
    }

    /** Starts one more server; returns its port. */
    int start() {
        // the contenders' pools plus the watchdog scenario's connections stay far below this
        RedisNode node = new RedisNode(binary, "--maxclients", "1000").start();
        nodes.add(node);
        return node.port();
    }

    /** Starts a replica of the server on {@code masterPort} and waits (at most 30 s) until its link is up. */
    int startReplicaOf(int masterPort) {
        RedisNode node = new RedisNode(
                        binary, "--maxclients", "1000", "--replicaof", RedisNode.HOST, Integer.toString(masterPort))
                .start();
        nodes.add(node);
        Replication.awaitLinkUp(node, masterPort, Duration.ofSeconds(30));
        return node.port();
    }

    List<Integer> ports() {
        return nodes.stream().map(RedisNode::port).toList();
    }

    @Override
    public synchronized void close() {
        for (RedisNode node : nodes) {
            node.close();
        }
        nodes.clear();
    }
}
