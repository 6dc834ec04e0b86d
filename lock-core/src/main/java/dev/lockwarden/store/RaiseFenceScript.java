package dev.lockwarden.store;

import redis.clients.jedis.args.Rawable;

/** raise-fence.lua (Redlock phase 2, and after a force-release over Redlock): its keys, arguments and reply. */
final class RaiseFenceScript {
    static final LuaScript SCRIPT = LuaScript.load(RaiseFenceScript.class, "raise-fence.lua");

    private final KeySpace keys;
    private final Encoded fenceRetention;

    RaiseFenceScript(KeySpace keys, long fenceRetentionMillis) {
        this.keys = keys;
        this.fenceRetention = Encoded.of(fenceRetentionMillis);
    }

    /** Keys lock, info, fence; arguments token ("" = only raise), fence to raise to, fence retention. */
    ScriptCall call(String name, String token, long fence) {
        Rawable[] k = {Encoded.of(keys.lock(name)), Encoded.of(keys.info(name)), Encoded.of(keys.fence(name))};
        Rawable[] a = {Encoded.of(token), Encoded.of(Long.toString(fence)), fenceRetention};
        return new ScriptCall(SCRIPT, k, a);
    }

    /** True if the lock on this node is still held with the token. */
    static boolean stillOurs(Object reply) {
        return Long.valueOf(1L).equals(reply);
    }
}
