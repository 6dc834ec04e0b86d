package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link ReplicaWait}'s pipeline on a Redis Cluster: the scripts and {@code WAIT} on one connection borrowed
 * from the pool of the master that owns the scripts' hash slot (all of them share one). A slot that moved
 * (MOVED) makes the slot map be re-read and the pair be sent again to the new owner; a slot being migrated
 * (ASK) sends it again to the importing node, after {@code ASKING}; at most {@value #ATTEMPTS} times in all. A
 * broken connection makes the slot map be re-read before the error goes to {@link NodeCalls} (which may retry).
 */
final class SlotOwnerWait {
    private static final int ATTEMPTS = 3;

    private final RedisClusterClient cluster;

    SlotOwnerWait(RedisClusterClient cluster) {
        this.cluster = cluster;
    }

    /** One pipeline per attempt; null if a script was not cached (as {@link ReplicaWait}'s own). */
    ReplicaWait.Acked once(List<ScriptCall> batch, ReplicaAcks acks, boolean eval) {
        int slot = JedisClusterCRC16.getSlot(batch.get(0).keys()[0].getRaw());
        HostAndPort ask = null;
        for (int attempt = 1; ; attempt++) {
            List<Response<Object>> replies = new ArrayList<>(batch.size());
            Response<Long> waited;
            HostAndPort master;
            try (Connection c = ask != null ? connectionTo(ask) : cluster.getConnectionFromSlot(slot)) {
                master = c.getHostAndPort();
                Pipeline p = new Pipeline(c);
                if (ask != null) {
                    p.executeCommand(
                            new CommandObject<>(new CommandArguments(Protocol.Command.ASKING), BuilderFactory.STRING));
                }
                for (ScriptCall s : batch) {
                    replies.add(eval ? s.queueEval(p) : s.queue(p));
                }
                waited = p.executeCommand(ReplicaWait.waitCommand(acks));
                p.sync();
            } catch (JedisConnectionException e) {
                rereadSlots(); // a failed master: the caller's retry (or the next call) finds its promoted replica
                throw e;
            }
            try {
                return ReplicaWait.collect(replies, waited, eval, master.toString());
            } catch (JedisRedirectionException e) {
                if (attempt >= ATTEMPTS) {
                    throw e;
                }
                ask = e instanceof JedisAskDataException ? e.getTargetNode() : null;
                if (ask == null) {
                    cluster.refreshClusterTopology(); // MOVED: the slot has a new owner
                }
            }
        }
    }

    private void rereadSlots() {
        try {
            cluster.refreshClusterTopology();
        } catch (RuntimeException ignored) {
            // no node reachable right now: the caller's error stands
        }
    }

    private Connection connectionTo(HostAndPort node) {
        ConnectionPool pool = cluster.getClusterNodes().get(node.toString());
        if (pool == null) {
            cluster.refreshClusterTopology();
            pool = cluster.getClusterNodes().get(node.toString());
        }
        if (pool == null) {
            throw new JedisConnectionException(node + " (the slot's importing node) is not in the slot map");
        }
        return pool.getResource();
    }
}
