package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redlock's hot calls — both phases of an acquire, and every release — sent to the nodes through their
 * {@link NodePipeline}s: the calling thread writes the call to each node and waits for the fan-out's early
 * decision, as {@link NodeFanOut#call} does, without handing each node's call to a thread and back. A
 * lease's calls reach each node in the order they were made (one connection per node): phase 2 never runs
 * before phase 1 on a node (it records the agreed fence in the lock there), and a release never overtakes
 * the acquire it undoes. Calls of leases with replica acknowledgement take the per-node lanes.
 * <p>
 * Over 200 lines because each hot call has its pipelined form and its fall-back to the lanes side by side.
 */
final class RedlockPipelines implements AutoCloseable {
    /** One node's acquire and release scripts (node 0's release also records the lock's history) and failure mapping. */
    record NodeScripts(AcquireScript acquire, ReleaseScript release, RaiseFenceScript raiseFence, NodeCalls calls) {}

    /** No pipelines: every call takes the fan-out's lanes (a deployment built without them). */
    static final RedlockPipelines NONE = new RedlockPipelines(List.of(), List.of());

    private final List<NodeScripts> scripts;
    private final List<NodePipeline> pipes;

    RedlockPipelines(List<NodeScripts> scripts, List<NodePipeline> pipes) {
        this.scripts = List.copyOf(scripts);
        this.pipes = List.copyOf(pipes);
    }

    /**
     * A pipeline per node, connecting as {@code connect} says (the pools' client settings); a call that waited
     * {@code timeoutMillis} for its reply fails with every other call waiting on that node.
     */
    static RedlockPipelines of(
            List<RedisNodeClient> nodes,
            List<java.util.function.Supplier<SharedConnection.Socket>> connect,
            long timeoutMillis) {
        List<NodeScripts> scripts = new ArrayList<>();
        List<NodePipeline> pipes = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            scripts.add(nodes.get(i).scripts());
            java.util.function.Supplier<SharedConnection.Socket> open = connect.get(i);
            pipes.add(new NodePipeline(
                    nodes.get(i).address(),
                    () -> loaded(
                            open.get(), List.of(AcquireScript.SCRIPT, ReleaseScript.SCRIPT, RaiseFenceScript.SCRIPT)),
                    timeoutMillis,
                    i));
        }
        return new RedlockPipelines(scripts, pipes);
    }

    /**
     * {@code s} with {@code scripts} loaded (so a restarted node does not answer NOSCRIPT to calls in flight),
     * reading without a timeout from now on: its pipeline's reader waits for replies, and calls time out there.
     */
    static SharedConnection.Socket loaded(SharedConnection.Socket s, List<LuaScript> scripts) {
        try {
            for (LuaScript script : scripts) {
                s.write(new CommandArguments(Protocol.Command.SCRIPT)
                        .add("LOAD")
                        .add(script.source()));
            }
            s.send();
            for (int i = 0; i < scripts.size(); i++) {
                try {
                    s.getUnflushedObject();
                } catch (JedisDataException e) {
                    // e.g. an ACL without SCRIPT LOAD: a NOSCRIPT answer then re-sends the call as EVAL
                }
            }
            s.setTimeoutInfinite();
            return s;
        } catch (RuntimeException e) {
            s.dispose();
            throw e;
        }
    }

    /** Phase 1 of an acquire on every node (acquire.lua without storing the floor), decided as {@link NodeFanOut#call}. */
    List<NodeReply<AcquireResult>> acquire(
            NodeFanOut fanOut, Lease lease, LockHolder holder, boolean waiter, long timeoutMillis, int need) {
        CallDescription what = new CallDescription("acquire", lease.name());
        if (onLanes(lease)) {
            return fanOut.call(
                    what.toString(),
                    lease.name(),
                    n -> n.acquire(lease, holder, false, 0, waiter),
                    timeoutMillis,
                    AcquireResult::acquired,
                    need);
        }
        // the same keys and arguments on every node: encoded once (node i's script only reads the reply)
        ScriptCall c = scripts.get(0).acquire().call(lease, holder, false, waiter);
        CommandObject<Object> evalsha = c.command(false);
        CommandObject<Object> eval = c.command(true);
        return fanOut.send(
                what.toString(),
                (i, out) -> acquireOn(i, lease, evalsha, eval, what, out),
                timeoutMillis,
                AcquireResult::acquired,
                need);
    }

    /** Phase 1 of an acquire on node {@code index} alone, waiting at most {@code timeoutMillis}. */
    AcquireResult acquireOne(
            NodeFanOut fanOut, int index, Lease lease, LockHolder holder, boolean waiter, long timeoutMillis) {
        CallDescription what = new CallDescription("acquire", lease.name());
        if (onLanes(lease)) {
            return fanOut.callOne(
                    index,
                    what.toString(),
                    lease.name(),
                    n -> n.acquire(lease, holder, false, 0, waiter),
                    timeoutMillis);
        }
        CountDownLatch done = new CountDownLatch(1);
        Object[] result = new Object[1];
        ScriptCall c = scripts.get(index).acquire().call(lease, holder, false, waiter);
        acquireOn(index, lease, c.command(false), c.command(true), what, (value, failure) -> {
            result[0] = failure != null ? failure : value;
            done.countDown();
        });
        try {
            if (!done.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new NodeTimeoutException(
                        pipes.get(index).address(),
                        "Redis " + pipes.get(index).address() + " did not answer within " + timeoutMillis + " ms ("
                                + what + "): the node is slow, paused or unreachable");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("interrupted while waiting for Redis (" + what + ")", e);
        }
        if (result[0] instanceof LockStoreException e) {
            throw e;
        }
        return (AcquireResult) result[0];
    }

    private void acquireOn(
            int i,
            Lease lease,
            CommandObject<Object> evalsha,
            CommandObject<Object> eval,
            CallDescription what,
            NodeFanOut.Outcome<AcquireResult> out) {
        sendTo(i, evalsha, eval, what, (s, reply) -> s.acquire().reply(lease, reply, what, s.calls()), out);
    }

    /** Sends a call to node {@code i}; {@code out} gets {@code parse}'s value of the reply, or the failure. */
    private <T> void sendTo(
            int i,
            CommandObject<Object> evalsha,
            CommandObject<Object> eval,
            Object what,
            java.util.function.BiFunction<NodeScripts, Object, T> parse,
            NodeFanOut.Outcome<T> out) {
        NodeScripts s = scripts.get(i);
        pipes.get(i).send(evalsha, eval, (reply, failure) -> {
            if (failure != null) {
                out.done(null, mapped(s, what, failure));
                return;
            }
            T value;
            try {
                value = parse.apply(s, reply); // an unusable reply is a NodeException
            } catch (LockStoreException e) {
                out.done(null, e);
                return;
            }
            out.done(value, null);
        });
    }

    /**
     * Phase 2 of an acquire on every node (raise-fence.lua), decided as {@link NodeFanOut#call}: on each node
     * after that lease's phase 1, which may still be in flight there.
     */
    List<NodeReply<Boolean>> raiseFence(NodeFanOut fanOut, Lease lease, long fence, long timeoutMillis, int need) {
        String what = "raise the fence of '" + lease.name() + "'";
        if (onLanes(lease)) {
            return fanOut.call(
                    what,
                    lease.name(),
                    n -> n.raiseFence(lease.name(), lease.token(), fence),
                    timeoutMillis,
                    Boolean::booleanValue,
                    need);
        }
        return fanOut.send(
                what,
                (i, out) -> {
                    ScriptCall c = scripts.get(i).raiseFence().call(lease.name(), lease.token(), fence);
                    sendTo(i, c.command(false), c.command(true), what, (sc, r) -> RaiseFenceScript.stillOurs(r), out);
                },
                timeoutMillis,
                Boolean::booleanValue,
                need);
    }

    /** A release on every node, as {@code wake} and {@code keepMillis} say, decided as {@link NodeFanOut#call}. */
    List<NodeReply<Boolean>> release(
            NodeFanOut fanOut,
            Lease lease,
            ReleaseScript.Wake wake,
            long keepMillis,
            long timeoutMillis,
            Predicate<Boolean> good,
            int need) {
        CallDescription what = new CallDescription("release", lease.name());
        if (onLanes(lease)) {
            return fanOut.call(
                    what.toString(), lease.name(), n -> n.release(lease, wake, keepMillis), timeoutMillis, good, need);
        }
        return fanOut.send(
                what.toString(),
                (i, out) -> {
                    ScriptCall c = scripts.get(i).release().call(lease, wake, keepMillis);
                    sendTo(i, c.command(false), c.command(true), what, (sc, r) -> ReleaseScript.released(r), out);
                },
                timeoutMillis,
                good,
                need);
    }

    /** Calls of leases with replica acknowledgement (the WAIT after each) take the lanes, as do all without pipelines. */
    private boolean onLanes(Lease lease) {
        return pipes.isEmpty() || lease.acks().on();
    }

    private static LockStoreException mapped(NodeScripts s, Object what, RuntimeException failure) {
        if (failure instanceof LockStoreException l) {
            return l;
        }
        RuntimeException e = s.calls()
                .failure(what, failure instanceof JedisException j ? j : new JedisConnectionException(failure));
        return e instanceof LockStoreException l ? l : new LockStoreException(e.getMessage(), e);
    }

    @Override
    public void close() {
        pipes.forEach(NodePipeline::close);
    }
}
