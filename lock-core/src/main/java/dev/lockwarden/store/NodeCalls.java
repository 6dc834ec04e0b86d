package dev.lockwarden.store;

import dev.lockwarden.LocalPoolBusyException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * How every call to one node runs: admitted by the node's {@link ConnectionGate} (if it has one), every
 * Jedis failure turned into a {@link NodeException} naming the node (a timeout: a
 * {@link NodeTimeoutException}), a full local pool into a {@link LocalPoolBusyException}; and the one
 * retry path: a broken connection of an idempotent call is retried once on a fresh one, after
 * {@code dropIdle} (after a Redis restart every idle pooled connection is dead). Replies this node gives
 * that Lockwarden cannot use are {@link NodeException}s too ({@link #unexpected}).
 */
final class NodeCalls {
    private final String address;
    /** Null = calls go straight to the client (which then must not run out of connections). */
    private final ConnectionGate gate;

    private final Runnable dropIdle;

    NodeCalls(String address, ConnectionGate gate, Runnable dropIdle) {
        this.address = address;
        this.gate = gate;
        this.dropIdle = dropIdle;
    }

    String address() {
        return address;
    }

    /**
     * Runs {@code action} waiting for a free connection until {@code deadlineNanos} (0 = none), at least
     * the timeout. {@code idempotent}: a broken connection (not a timeout: a stalled server would only
     * double the wait) is retried once.
     */
    <T> T run(Object what, long deadlineNanos, boolean idempotent, Supplier<T> action) {
        if (gate != null) {
            gate.enter(deadlineNanos, what);
        }
        try {
            try {
                return action.get();
            } catch (JedisException e) {
                if (!idempotent || !(e instanceof JedisConnectionException) || isPoolExhausted(e) || isTimeout(e)) {
                    throw failure(what, e);
                }
                dropIdle.run();
            }
            try {
                return action.get();
            } catch (JedisException e) {
                throw failure(what, e);
            }
        } finally {
            if (gate != null) {
                gate.exit();
            }
        }
    }

    /** Drops idle pooled connections (they are all dead after a server restart); no-op for other clients. */
    static void dropIdleConnections(redis.clients.jedis.UnifiedJedis redis) {
        if (redis instanceof redis.clients.jedis.RedisClient c) {
            try {
                c.getPool().clear();
            } catch (RuntimeException ignored) {
                // best effort
            }
        }
    }

    /** The typed error for a Jedis failure of {@code what}. */
    RuntimeException failure(Object what, JedisException e) {
        if (isPoolExhausted(e)) {
            // our own pool ran dry (callers outside the gate hold every connection): not a Redis failure
            return ConnectionGate.busy(address, what, -1);
        }
        if (e instanceof JedisConnectionException) {
            if (isTimeout(e)) {
                return new NodeTimeoutException(
                        address,
                        "Redis " + address + " did not answer in time (" + what + "): " + rootMessage(e)
                                + ". It is stalled or overloaded; raise the timeout if it is just slow.",
                        e);
            }
            return new NodeException(
                    address,
                    "Redis " + address + " is unreachable (" + what + "): " + rootMessage(e)
                            + ". Check that Redis runs there and the URI is right.",
                    e);
        }
        String why = rootMessage(e);
        if (why.contains("WRONGTYPE") || why.contains("not an integer")) {
            why += ". A key of this lock (its name, :info or :fence) holds a value Lockwarden did not write"
                    + " (someone SET/HSET it by hand?): inspect and delete it";
        }
        return new NodeException(address, "Redis " + address + " failed to " + what + ": " + why, e);
    }

    /** A script reply that must be a list of at least {@code size} elements, else a clear store error. */
    List<?> list(Object what, Object reply, int size) {
        if (reply instanceof List<?> l && l.size() >= size) {
            return l;
        }
        throw unexpected(what, reply);
    }

    /** A reply element that must be an integer (or its decimal text). */
    long integer(Object what, Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof String || value instanceof byte[]) {
            String text = value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) value;
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw unexpected(what, value);
    }

    /** A reply Lockwarden cannot use. */
    NodeException unexpected(Object what, Object reply) {
        String shown = String.valueOf(reply);
        return new NodeException(
                address,
                "Redis " + address + " gave an unexpected reply to " + what + ": "
                        + (shown.length() > 80 ? shown.substring(0, 80) + "..." : shown)
                        + ". A key of this lock holds a value"
                        + " Lockwarden did not write, or the server is not a Redis this version supports.");
    }

    private static boolean isPoolExhausted(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoSuchElementException
                    || (t.getMessage() != null
                            && t.getMessage().startsWith("Could not get a resource from the pool"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }
}
