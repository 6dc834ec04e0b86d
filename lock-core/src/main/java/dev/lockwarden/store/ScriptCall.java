package dev.lockwarden.store;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.Rawable;

/** One call of a Lua script with its keys and arguments encoded once (built by the script's own class). */
record ScriptCall(LuaScript script, Rawable[] keys, Rawable[] args) {
    Object run(UnifiedJedis redis) {
        return script.run(redis, keys, args);
    }

    Object run(SharedConnection redis, Runnable sent) {
        return script.run(redis, keys, args, sent);
    }

    /** The call as EVALSHA, or with {@code eval} as EVAL. */
    CommandObject<Object> command(boolean eval) {
        return script.command(eval, keys, args);
    }

    Response<Object> queue(AbstractPipeline pipeline) {
        return script.queue(pipeline, keys, args);
    }

    Response<Object> queueEval(AbstractPipeline pipeline) {
        return script.queueEval(pipeline, keys, args);
    }
}
