package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link SharedConnection} against a real redis-server: every caller gets its own reply while many threads
 * share the connection, an error reply fails only its own call, a dropped connection fails the calls on it
 * and the next call reconnects, and a frozen server fails every waiting call within the timeout.
 */
class SharedConnectionTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int TIMEOUT_MS = 500;

    private static SharedConnection connect() {
        return SharedConnection.to(
                new HostAndPort(REDIS.node(0).host(), REDIS.node(0).port()),
                DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(TIMEOUT_MS)
                        .connectionTimeoutMillis(TIMEOUT_MS)
                        .clientName("shared-test")
                        .build());
    }

    private static CommandObject<String> echo(String text) {
        return new CommandObject<>(new CommandArguments(Protocol.Command.ECHO).add(text), BuilderFactory.STRING);
    }

    private static CommandObject<Long> incr(String key) {
        return new CommandObject<>(new CommandArguments(Protocol.Command.INCR).key(key), BuilderFactory.LONG);
    }

    @Test
    void everyCallerGetsItsOwnReplyWhileSixteenThreadsShareTheConnection() throws Exception {
        int threads = 16;
        int calls = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SharedConnection shared = connect()) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                done.add(pool.submit(() -> {
                    int mismatched = 0;
                    for (int i = 0; i < calls; i++) {
                        String mine = me + ":" + i;
                        if (!mine.equals(shared.execute(echo(mine)))) {
                            mismatched++;
                        }
                        shared.execute(incr("shared:count"));
                    }
                    return mismatched;
                }));
            }
            for (Future<Integer> f : done) {
                assertEquals(0, f.get(60, TimeUnit.SECONDS), "a caller got another caller's reply");
            }
            assertEquals(Integer.toString(threads * calls), REDIS.node(0).command("GET", "shared:count"));
            // one connection served them all (the test's own redis-cli is another client)
            String clients = REDIS.node(0).command("CLIENT", "LIST");
            assertEquals(
                    1,
                    clients.lines().filter(l -> l.contains("name=shared-test")).count(),
                    clients);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anErrorReplyFailsItsOwnCallOnly() {
        REDIS.node(0).command("SET", "shared:text", "not a number");
        try (SharedConnection shared = connect()) {
            JedisDataException e = assertThrows(JedisDataException.class, () -> shared.execute(incr("shared:text")));
            assertTrue(e.getMessage().contains("not an integer"), e.getMessage());
            assertEquals("still in step", shared.execute(echo("still in step")));
        }
    }

    @Test
    void aDroppedConnectionFailsItsCallAndTheNextCallReconnects() {
        try (SharedConnection shared = connect()) {
            assertEquals("before", shared.execute(echo("before")));
            REDIS.node(0).command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
            // the kill may reach the socket before or after the next write: either the call fails as a broken
            // connection, or it already runs on a new one; in both cases the call after it works
            try {
                shared.execute(echo("during"));
            } catch (JedisConnectionException expected) {
                // dropped with the connection
            }
            assertEquals("after", shared.execute(echo("after")));
        }
    }

    @Test
    void aRestartUnderLoadFailsOnlyTheCallsInFlightAndNothingHangs() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        try (SharedConnection shared = connect()) {
            List<Future<long[]>> load = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                load.add(pool.submit(() -> {
                    long ok = 0;
                    long failed = 0;
                    long wrong = 0;
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); // bounded even if stop never comes
                    for (int i = 0; !stop.get() && System.nanoTime() < until && i < 1_000_000; i++) {
                        String mine = me + ":" + i;
                        try {
                            if (!mine.equals(shared.execute(echo(mine)))) {
                                wrong++;
                            }
                            ok++;
                        } catch (JedisConnectionException down) {
                            failed++;
                            Thread.sleep(5);
                        }
                    }
                    return new long[] {ok, failed, wrong};
                }));
            }
            Thread.sleep(300);
            REDIS.node(0).restart();
            Thread.sleep(500);
            stop.set(true);
            long ok = 0;
            long failed = 0;
            for (Future<long[]> f : load) {
                long[] r = f.get(30, TimeUnit.SECONDS); // a hang fails here
                assertEquals(0, r[2], "a caller got another caller's reply");
                ok += r[0];
                failed += r[1];
            }
            assertTrue(ok > threads, "calls before and after the restart succeeded: " + ok);
            assertTrue(failed >= 1, "the calls in flight during the restart failed as connection errors");
            assertEquals("after", shared.execute(echo("after")));
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    @Test
    void aFrozenServerFailsEveryWaitingCallWithinTheTimeout() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (SharedConnection shared = connect()) {
            assertEquals("warm", shared.execute(echo("warm")));
            REDIS.node(0).pause();
            List<Future<Throwable>> calls = new ArrayList<>();
            long t0 = System.nanoTime();
            try {
                for (int i = 0; i < 8; i++) {
                    int n = i;
                    calls.add(pool.submit(() -> {
                        try {
                            shared.execute(echo("frozen " + n));
                            return null;
                        } catch (RuntimeException e) {
                            return e;
                        }
                    }));
                }
                for (Future<Throwable> f : calls) {
                    Throwable t = f.get(10, TimeUnit.SECONDS);
                    assertInstanceOf(JedisConnectionException.class, t, "a call to a frozen server must fail");
                    boolean timeout = false;
                    for (Throwable c = t; c != null; c = c.getCause()) {
                        timeout |= c instanceof SocketTimeoutException;
                    }
                    assertTrue(timeout, "failed as a timeout (mapped to NodeTimeoutException): " + t);
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < 2 * TIMEOUT_MS + 2_000, "took " + ms + " ms");
            } finally {
                REDIS.node(0).resume();
            }
            assertEquals("thawed", shared.execute(echo("thawed")));
        } finally {
            pool.shutdownNow();
        }
    }
}
