package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;

/** A batch of script calls to one node in one pipelined round trip (release or refresh of many locks). */
final class ScriptPipeline {
    private ScriptPipeline() {}

    /**
     * Runs {@code batch} on {@code node} (retried as a whole, like any call); a script the server did not
     * have cached runs again alone, any other error reply fails the batch, naming {@code whatOf(i)}.
     */
    static List<Object> run(RedisNodeClient node, String what, List<ScriptCall> batch, IntFunction<String> whatOf) {
        if (batch.isEmpty()) {
            return List.of();
        }
        List<Response<Object>> replies = new ArrayList<>(batch.size());
        node.call(what, () -> {
            replies.clear(); // a retried call starts over
            try (AbstractPipeline p = node.redis().pipelined()) {
                batch.forEach(c -> replies.add(c.queue(p)));
                p.sync();
            }
            return null;
        });
        List<Object> out = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            try {
                out.add(replies.get(i).get());
            } catch (RuntimeException e) {
                if (!LuaScript.isNoScript(e)) {
                    throw new NodeException(
                            node.address(),
                            "Redis " + node.address() + " rejected " + whatOf.apply(i) + ": " + e.getMessage(),
                            e);
                }
                ScriptCall c = batch.get(i);
                out.add(node.call(whatOf.apply(i), () -> c.run(node.redis())));
            }
        }
        return out;
    }
}
