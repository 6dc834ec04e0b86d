package com.acme.legacy;

import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/** A legacy counter with a non-atomic read-modify-write in Redis; also records how many callers overlap. */
public class Counter {
    private static final String ENTER = "local a = redis.call('INCR', KEYS[1]) "
            + "if a > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], a) end return a";
    private final UnifiedJedis redis;

    public Counter(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Adds one to {@code name}: GET, think, SET. Loses updates when callers overlap. */
    public void increment(String name) throws InterruptedException {
        redis.eval(ENTER, List.of(name + ":active", name + ":max"), List.of());
        try {
            String v = redis.get(name);
            long n = v == null ? 0 : Long.parseLong(v);
            Thread.sleep(2);
            redis.set(name, Long.toString(n + 1));
        } finally {
            redis.decr(name + ":active");
        }
    }
}
