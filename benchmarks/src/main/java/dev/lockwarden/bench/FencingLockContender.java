package dev.lockwarden.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The like-for-like fenced lock: one acquire script ({@code SET NX PX}, then {@code INCR} of the lock's
 * fence counter, see {@code fencing-lock-acquire.lua}), the snippet's Lua token-checked {@code DEL} as
 * release, and tight polling as its wait, on the same pooled Jedis {@code RedisClient} as the snippet. It
 * issues a fence as Lockwarden does, but keeps no holder info, no fence floor, no history and sends no
 * wake-ups: the fair single-node baseline for Lockwarden.
 */
final class FencingLockContender implements Contender {
    static final String NAME = "FencingLock (INCR fence + SET NX PX script)";

    private final int port;
    private RedisClient redis;
    private String acquireScript;
    private String acquireSha;
    private String releaseSha;

    FencingLockContender(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void setUp() {
        try {
            acquireScript = BoundsMain.resource(FencingLockContender.class, "fencing-lock-acquire.lua");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        redis = Pools.jedis(port);
        acquireSha = redis.scriptLoad(acquireScript);
        releaseSha = redis.scriptLoad(SnippetContender.RELEASE);
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        String token = Long.toHexString(ThreadLocalRandom.current().nextLong())
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
        if (fence(key, token) <= 0) {
            return false;
        }
        try {
            body.run();
        } finally {
            release(key, token);
        }
        return true;
    }

    /** The fence, or 0 when the lock is busy. */
    private long fence(String key, String token) {
        List<String> keys = List.of(key, key + ":fence");
        List<String> args = List.of(token, "30000");
        Object reply;
        try {
            reply = redis.evalsha(acquireSha, keys, args);
        } catch (JedisNoScriptException e) {
            reply = redis.eval(acquireScript, keys, args);
        }
        return (Long) reply;
    }

    private void release(String key, String token) {
        try {
            redis.evalsha(releaseSha, List.of(key), List.of(token));
        } catch (JedisNoScriptException e) {
            redis.eval(SnippetContender.RELEASE, List.of(key), List.of(token));
        }
    }

    /** Tight polling, as the snippet: retries at once until acquired or the wait is over. */
    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws Exception {
        return pollingCycle(key, maxWaitMillis, body);
    }

    @Override
    public String waitStyle() {
        return "tight polling";
    }

    @Override
    public void tearDown() {
        if (redis != null) {
            redis.close();
        }
    }
}
