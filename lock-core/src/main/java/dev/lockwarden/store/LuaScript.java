package dev.lockwarden.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script loaded from a resource beside the class that runs it. Runs with EVALSHA and falls
 * back to EVAL on NOSCRIPT (which also caches it on that server, e.g. after a restart). Every
 * input goes through KEYS/ARGV.
 */
public final class LuaScript {
    private final String name;
    private final String source;
    private final String sha1;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = Sha1.hex(source);
    }

    /** Loads {@code resource} relative to {@code owner}'s package. */
    public static LuaScript load(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + resource + " is missing next to " + owner.getName());
            }
            return new LuaScript(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read Lua script " + resource, e);
        }
    }

    /** Runs the script: one round trip unless the server lost its script cache. */
    public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(sha1, keys, args);
        } catch (JedisNoScriptException e) {
            return redis.eval(source, keys, args);
        }
    }

    /** Queues the script in a pipeline; {@link #isNoScript} tells when the caller must re-run it with {@link #run}. */
    public Response<Object> queue(AbstractPipeline pipeline, List<String> keys, List<String> args) {
        return pipeline.evalsha(sha1, keys, args);
    }

    /** True if a pipelined reply failed only because the server did not have the script cached. */
    public static boolean isNoScript(RuntimeException e) {
        return e instanceof JedisNoScriptException
                || (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"));
    }

    public String sha1() {
        return sha1;
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return name + "@" + sha1;
    }
}
