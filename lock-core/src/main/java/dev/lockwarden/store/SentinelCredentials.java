package dev.lockwarden.store;

import dev.lockwarden.config.RedisUri;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Decides whether the sentinels get the sentinel URIs' credentials. Sentinels often run without a password
 * while the master needs one: sending them the master's password fails ({@code AUTH <password>} to a
 * server without one is an error), so the first sentinel that answers is asked for the master without
 * credentials. If it names it (or says it monitors no such master) the sentinels need none and get none;
 * if it refuses ({@code NOAUTH}, {@code NOPERM}) they get the URIs' credentials, as the master does. All
 * sentinels of one deployment are treated alike.
 */
final class SentinelCredentials {
    private SentinelCredentials() {}

    /**
     * The sentinels' connection settings for sentinel URI {@code uri} ({@code RedisClients.sentinelConfig}):
     * with its credentials, or without them when the first sentinel that answers does so without them.
     */
    static JedisClientConfig choose(
            String masterName, List<HostAndPort> sentinels, RedisUri uri, ConnectionSettings conn) {
        JedisClientConfig withCredentials = RedisClients.sentinelConfig(uri, conn, true);
        if (withCredentials.getPassword() == null) {
            return withCredentials;
        }
        JedisClientConfig without = RedisClients.sentinelConfig(uri, conn, false);
        for (HostAndPort sentinel : sentinels) {
            try (Jedis probe = new Jedis(sentinel, without)) {
                probe.sentinelGetMasterAddrByName(masterName);
                return without;
            } catch (JedisConnectionException unreachable) {
                // try the next one; if none answers, building the client reports it
            } catch (JedisDataException refused) {
                return withCredentials; // NOAUTH / NOPERM: this sentinel wants the credentials
            }
        }
        return withCredentials;
    }
}
