package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisServerExtension;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link NodePipeline} against a real redis-server: replies reach their own callers in order while many
 * threads send, an error reply fails its own call only, a restarted server is reconnected without failing
 * the call, a frozen server blocks no caller and its waiting calls fail as timeouts (at most
 * {@link NodePipeline#MAX_BACKLOG} wait), a flushed script cache is answered by EVAL, and close fails what waits.
 */
class NodePipelineTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int TIMEOUT_MS = 500;
    private static final LuaScript ECHO_SCRIPT = LuaScript.load(NodePipelineTest.class, "pipeline-echo.lua");

    private static NodePipeline connect() {
        HostAndPort node = new HostAndPort(REDIS.node(0).host(), REDIS.node(0).port());
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder()
                .socketTimeoutMillis(TIMEOUT_MS)
                .connectionTimeoutMillis(TIMEOUT_MS)
                .clientName("pipeline-test")
                .build();
        return new NodePipeline(
                "test",
                () -> RedlockPipelines.loaded(new SharedConnection.Socket(node, config), List.of(ECHO_SCRIPT)),
                TIMEOUT_MS,
                0);
    }

    private static CommandObject<Object> command(Object... args) {
        CommandArguments a = new CommandArguments((Protocol.Command) args[0]);
        for (int i = 1; i < args.length; i++) {
            a.add(args[i]);
        }
        return new CommandObject<>(a, BuilderFactory.AGGRESSIVE_ENCODED_OBJECT);
    }

    private static CompletableFuture<Object> send(NodePipeline p, CommandObject<Object> c, CommandObject<Object> eval) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        p.send(c, eval, (reply, failure) -> {
            if (failure != null) {
                f.completeExceptionally(failure);
            } else {
                f.complete(reply);
            }
        });
        return f;
    }

    private static Object echo(NodePipeline p, String text) throws Exception {
        return send(p, command(Protocol.Command.ECHO, text), null).get(5, TimeUnit.SECONDS);
    }

    private static Throwable failureOf(CompletableFuture<Object> f) throws Exception {
        try {
            f.get(10, TimeUnit.SECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
    }

    private static boolean isTimeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyCallerGetsItsOwnReplyInTheOrderItWasSent() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try (NodePipeline p = connect()) {
            List<Future<Integer>> wrong = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int me = t;
                wrong.add(pool.submit(() -> {
                    int bad = 0;
                    List<CompletableFuture<Object>> mine = new ArrayList<>();
                    for (int i = 0; i < 500; i++) {
                        mine.add(send(p, command(Protocol.Command.ECHO, me + ":" + i), null));
                    }
                    for (int i = 0; i < mine.size(); i++) {
                        bad += (me + ":" + i).equals(mine.get(i).get(10, TimeUnit.SECONDS)) ? 0 : 1;
                    }
                    return bad;
                }));
            }
            for (Future<Integer> f : wrong) {
                assertEquals(0, f.get(30, TimeUnit.SECONDS), "a caller got another call's reply");
            }
            // one sender, no waiting between calls: Redis runs them in the order they were sent
            List<CompletableFuture<Object>> incr = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                incr.add(send(p, command(Protocol.Command.INCR, "pipeline:order"), null));
            }
            for (int i = 0; i < incr.size(); i++) {
                assertEquals((long) i + 1, incr.get(i).get(10, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            REDIS.flushAll();
        }
    }

    @Test
    void anErrorReplyFailsItsOwnCallOnly() throws Exception {
        try (NodePipeline p = connect()) {
            REDIS.node(0).command("SET", "pipeline:text", "not a number");
            CompletableFuture<Object> bad = send(p, command(Protocol.Command.INCR, "pipeline:text"), null);
            assertEquals("after", echo(p, "after"));
            assertInstanceOf(JedisDataException.class, failureOf(bad));
        } finally {
            REDIS.flushAll();
        }
    }

    @Test
    void aRestartedServerIsReconnectedWithoutFailingTheCall() throws Exception {
        try (NodePipeline p = connect()) {
            assertEquals("before", echo(p, "before"));
            REDIS.node(0).restart();
            assertEquals("after", echo(p, "after"));
            REDIS.node(0).command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
            assertEquals("after a kill", echo(p, "after a kill"));
        }
    }

    @Test
    void aFrozenServerBlocksNoCallerAndItsCallsFailAsTimeouts() throws Exception {
        try (NodePipeline p = connect()) {
            assertEquals("warm", echo(p, "warm"));
            REDIS.node(0).pause();
            try {
                // more than the in-flight budget and the backlog together: nothing blocks, the excess fails at once
                int calls = NodePipeline.MAX_BACKLOG + NodePipeline.MAX_IN_FLIGHT_BYTES / 16;
                List<CompletableFuture<Object>> frozen = new ArrayList<>();
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    frozen.add(send(p, command(Protocol.Command.ECHO, "frozen " + i), null));
                }
                long sendMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(sendMs < TIMEOUT_MS, "sending to a frozen server took " + sendMs + " ms");
                CompletableFuture<Object> last = frozen.get(calls - 1);
                assertTrue(last.isCompletedExceptionally(), "beyond the backlog a call fails at once");
                assertTrue(isTimeout(failureOf(last)), "as a timeout: " + failureOf(last));
                assertFalse(frozen.get(0).isDone(), "nothing answers while the server is frozen");
                Thread.sleep(TIMEOUT_MS + 100);
                CompletableFuture<Object> late = send(p, command(Protocol.Command.ECHO, "late"), null);
                for (CompletableFuture<Object> f : frozen) {
                    Throwable t = failureOf(f);
                    assertInstanceOf(JedisConnectionException.class, t, "a call to a frozen server fails");
                    assertTrue(isTimeout(t), "as a timeout (mapped to NodeTimeoutException): " + t);
                }
                assertTrue(isTimeout(failureOf(late)), "still frozen: the call made later times out too");
            } finally {
                REDIS.node(0).resume();
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            Object back = null;
            while (back == null && System.nanoTime() < until) {
                try {
                    back = echo(p, "back");
                } catch (java.util.concurrent.ExecutionException e) {
                    Thread.sleep(50); // the connection opened while frozen may still time out
                }
            }
            assertEquals("back", back);
        }
    }

    @Test
    void aFlushedScriptCacheIsAnsweredByEval() throws Exception {
        try (NodePipeline p = connect()) {
            Rawable[] none = {};
            Rawable[] arg = {Encoded.of("hello")};
            assertEquals(
                    "hello",
                    send(p, ECHO_SCRIPT.command(false, none, arg), ECHO_SCRIPT.command(true, none, arg))
                            .get(5, TimeUnit.SECONDS));
            assertEquals(
                    "1",
                    REDIS.node(0)
                            .command("SCRIPT", "EXISTS", ECHO_SCRIPT.sha1())
                            .replaceAll("\\D", ""));
            REDIS.node(0).command("SCRIPT", "FLUSH");
            assertEquals(
                    "again",
                    send(
                                    p,
                                    ECHO_SCRIPT.command(false, none, new Rawable[] {Encoded.of("again")}),
                                    ECHO_SCRIPT.command(true, none, new Rawable[] {Encoded.of("again")}))
                            .get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void closeFailsTheWaitingCalls() throws Exception {
        NodePipeline p = connect();
        assertEquals("warm", echo(p, "warm"));
        REDIS.node(0).pause();
        try {
            CompletableFuture<Object> waiting = send(p, command(Protocol.Command.ECHO, "waiting"), null);
            p.close();
            assertInstanceOf(JedisConnectionException.class, failureOf(waiting));
            assertInstanceOf(
                    JedisConnectionException.class, failureOf(send(p, command(Protocol.Command.ECHO, "after"), null)));
        } finally {
            REDIS.node(0).resume();
        }
    }
}
