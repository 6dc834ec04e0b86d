package dev.lockwarden.store;

import java.util.List;

import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.RedisUri;
import redis.clients.jedis.RedisClient;

/** Creates the {@link LockStore} for a topology and checks that Redis answers. */
public final class StoreFactory {
    private StoreFactory() {
    }

    /** Which kind of deployment the URIs describe. */
    public enum Topology { SINGLE, REDLOCK, CLUSTER }

    public static LockStore create(Topology topology, List<RedisUri> uris, KeySpace keys, ConnectionSettings conn,
                                   long fenceRetentionMillis, boolean verify) {
        return switch (topology) {
            case SINGLE -> single(uris.get(0), keys, conn, fenceRetentionMillis, verify);
            case REDLOCK, CLUSTER -> throw new UnsupportedOperationException(topology + " is not implemented yet");
        };
    }

    private static LockStore single(RedisUri uri, KeySpace keys, ConnectionSettings conn, long fenceRetention, boolean verify) {
        RedisClient client = RedisClients.single(uri, conn);
        RedisNodeClient node = new RedisNodeClient(client, uri.toString(), keys, fenceRetention);
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
