package com.acme.legacy;

import redis.clients.jedis.Jedis;

/** Lets a legacy method body look into Redis (with the app's own Jedis) to see whether its lock is held. */
public final class LockProbe {
    private LockProbe() {}

    /** Whether Lockwarden's lock key for {@code name} exists right now. */
    public static boolean held(String name) {
        try (Jedis jedis = new Jedis(
                System.getProperty("legacy.redis.host", "127.0.0.1"), Integer.getInteger("legacy.redis.port", 6379))) {
            return jedis.exists("lock:{" + name + "}");
        }
    }

    /** Prints {@code what held=true|false} for the lock {@code name}. */
    public static void print(String what, String name) {
        System.out.println(what + " " + name + " held=" + held(name));
    }
}
