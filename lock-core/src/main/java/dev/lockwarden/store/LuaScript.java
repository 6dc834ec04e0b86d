package dev.lockwarden.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.Rawable;
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
    /** SHA-1 and source encoded once: the hot path hands them to Jedis as they are. */
    private final Encoded sha1Raw;

    private final Encoded sourceRaw;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = Sha1.hex(source);
        this.sha1Raw = Encoded.of(sha1);
        this.sourceRaw = Encoded.of(source);
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

    /**
     * Runs the script with keys and arguments already encoded (the hot paths: acquire, release). Same
     * command and reply decoding as {@link #run(UnifiedJedis, List, List)}, without Jedis encoding and
     * copying each argument again; on Redis Cluster the keys still route the call (all one slot).
     */
    Object run(UnifiedJedis redis, Rawable[] keys, Rawable[] args) {
        return run(redis::executeCommand, keys, args);
    }

    /** {@link #run(UnifiedJedis, Rawable[], Rawable[])} over a connection many threads share. */
    Object run(SharedConnection redis, Rawable[] keys, Rawable[] args) {
        return run(redis, keys, args, null);
    }

    /**
     * {@link #run(SharedConnection, Rawable[], Rawable[])}, running {@code sent} once the script call is
     * queued (if not null; see {@link SharedConnection#execute(CommandObject, Runnable)}; again if it is re-sent as EVAL).
     */
    Object run(SharedConnection redis, Rawable[] keys, Rawable[] args, Runnable sent) {
        return run(c -> redis.execute(c, sent), keys, args);
    }

    private Object run(
            java.util.function.Function<CommandObject<Object>, Object> execute, Rawable[] keys, Rawable[] args) {
        try {
            return execute.apply(command(Protocol.Command.EVALSHA, sha1Raw, keys, args));
        } catch (JedisNoScriptException e) {
            return execute.apply(command(Protocol.Command.EVAL, sourceRaw, keys, args));
        }
    }

    /** The call as EVALSHA, or with {@code eval} as EVAL (its source), for a connection that sends it itself. */
    CommandObject<Object> command(boolean eval, Rawable[] keys, Rawable[] args) {
        return eval
                ? command(Protocol.Command.EVAL, sourceRaw, keys, args)
                : command(Protocol.Command.EVALSHA, sha1Raw, keys, args);
    }

    private static CommandObject<Object> command(Protocol.Command cmd, Rawable script, Rawable[] keys, Rawable[] args) {
        CommandArguments a = new CommandArguments(cmd).add(script).add(Encoded.of(keys.length));
        for (Rawable k : keys) {
            a.key(k);
        }
        for (Rawable v : args) {
            a.add(v);
        }
        // the decoding of UnifiedJedis.evalsha(String, List, List): bulk replies as Strings
        return new CommandObject<>(a, BuilderFactory.AGGRESSIVE_ENCODED_OBJECT);
    }

    /** Queues the script in a pipeline; {@link #isNoScript} tells when the caller must re-run it with {@link #run}. */
    public Response<Object> queue(AbstractPipeline pipeline, List<String> keys, List<String> args) {
        return pipeline.evalsha(sha1, keys, args);
    }

    /** Queues the script with keys and arguments already encoded, as {@link #run(UnifiedJedis, Rawable[], Rawable[])}. */
    Response<Object> queue(AbstractPipeline pipeline, Rawable[] keys, Rawable[] args) {
        return pipeline.executeCommand(command(Protocol.Command.EVALSHA, sha1Raw, keys, args));
    }

    /** Queues the script as EVAL (its source): after a NOSCRIPT where it must run on the same connection again. */
    Response<Object> queueEval(AbstractPipeline pipeline, Rawable[] keys, Rawable[] args) {
        return pipeline.executeCommand(command(Protocol.Command.EVAL, sourceRaw, keys, args));
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
