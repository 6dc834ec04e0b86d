package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs one call on every node in parallel and waits a bounded time for the answers. Each node has
 * its own small thread pool, so a stalled node (paused, or behind a black-holed network) only ties up
 * its own threads; a call that waited in a node's queue past its deadline is skipped instead of sent,
 * so a stall never builds a backlog that hits the node when it comes back.
 * <p>
 * Over 200 lines because per-node lanes, early decision and the deadline skip are one mechanism; split apart they would need to share the tally's lock.
 */
final class NodeFanOut implements AutoCloseable {
    private final List<RedisNodeClient> nodes;
    /** Per node, single-thread lanes: calls for one lock name always take the same lane, in order. */
    private final List<ThreadPoolExecutor[]> lanes = new ArrayList<>();

    NodeFanOut(List<RedisNodeClient> nodes, int lanesPerNode) {
        this.nodes = List.copyOf(nodes);
        for (int i = 0; i < nodes.size(); i++) {
            int index = i;
            ThreadPoolExecutor[] nodeLanes = new ThreadPoolExecutor[lanesPerNode];
            for (int l = 0; l < lanesPerNode; l++) {
                ThreadPoolExecutor ex =
                        new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                            Thread t = new Thread(r, "lockwarden-redlock-node-" + index);
                            t.setDaemon(true);
                            return t;
                        });
                ex.allowCoreThreadTimeOut(true);
                nodeLanes[l] = ex;
            }
            lanes.add(nodeLanes);
        }
    }

    /**
     * The executor of one node for a lock name. One lane per name keeps a lease's calls on a node in
     * submission order: a release can never overtake the acquire it undoes (which would leave a stale
     * key behind and swallow the release message).
     */
    private ThreadPoolExecutor lane(int node, String name) {
        ThreadPoolExecutor[] l = lanes.get(node);
        int i = name == null
                ? java.util.concurrent.ThreadLocalRandom.current().nextInt(l.length)
                : Math.floorMod(name.hashCode(), l.length);
        return l[i];
    }

    /**
     * Calls {@code action} on every node and returns one reply per node, in node order. Returns as soon
     * as the outcome is decided — {@code need} replies satisfy {@code good}, or {@code need} answers do
     * not, or so many nodes failed that {@code need} is out of reach — or when every node answered, or
     * after {@code timeoutMillis}. A mix of "no" answers and failures waits for the rest: whether the
     * call failed (too many nodes down) or was refused (a majority said no) depends on them.
     * With {@code need <= 0} it waits for every node (or the timeout).
     * Nodes that had not answered by the timeout get a timeout error, those not needed for an early
     * decision a pending reply; their calls finish in the background.
     */
    <T> List<NodeReply<T>> call(
            String what,
            String lockName,
            Function<RedisNodeClient, T> action,
            long timeoutMillis,
            Predicate<T> good,
            int need) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        return send(
                what,
                (i, out) -> onLane(i, lockName, what, action, timeoutMillis, deadline, out),
                timeoutMillis,
                good,
                need);
    }

    /** Runs {@code action} on node {@code index} in its lane for {@code lockName}, unless it waited past {@code deadline}. */
    private <T> void onLane(
            int index,
            String lockName,
            String what,
            Function<RedisNodeClient, T> action,
            long timeoutMillis,
            long deadline,
            Outcome<T> out) {
        RedisNodeClient node = nodes.get(index);
        try {
            lane(index, lockName).execute(() -> {
                if (System.nanoTime() - deadline > 0) {
                    out.done(null, late(node, what, timeoutMillis));
                    return; // the caller gave up on this node already: do not send a stale call
                }
                T value;
                try {
                    value = action.apply(node);
                } catch (LockStoreException e) {
                    out.done(null, e);
                    return;
                } catch (RuntimeException e) {
                    out.done(
                            null,
                            new NodeException(
                                    node.address(), "Redis " + node.address() + " failed to " + what + ": " + e, e));
                    return;
                }
                out.done(value, null);
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            out.done(null, new LockStoreException("lock store is closed (" + what + ")", e));
        }
    }

    /** What a node's call answered: its value, or the failure that stands for it (null when it has a value). */
    interface Outcome<T> {
        void done(T value, LockStoreException failure);
    }

    /**
     * {@link #call} for calls that answer by themselves (Redlock's acquire and release, sent through each
     * node's {@link NodePipeline}; {@link #call} runs each node's call in its lane): {@code start} starts node
     * i's call without waiting and hands its outcome, once, to the given {@link Outcome}; the early decision
     * and the timeout are as described at {@link #call}.
     */
    <T> List<NodeReply<T>> send(
            String what,
            java.util.function.BiConsumer<Integer, Outcome<T>> start,
            long timeoutMillis,
            Predicate<T> good,
            int need) {
        int n = nodes.size();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Tally<T> tally = new Tally<>(n, good, need);
        for (int i = 0; i < n; i++) {
            int index = i;
            start.accept(i, (value, failure) -> tally.put(new NodeReply<>(index, value, failure)));
        }
        boolean decided = false;
        try {
            decided = tally.done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<NodeReply<T>> out = tally.snapshot();
        for (int i = 0; i < n; i++) {
            if (out.get(i) == null) {
                out.set(
                        i,
                        decided
                                ? new NodeReply<>(i, null, null, true)
                                : new NodeReply<>(i, null, late(nodes.get(i), what, timeoutMillis)));
            }
        }
        return out;
    }

    /** Runs {@code action} on one node through its executor, bounded by {@code timeoutMillis}. */
    <T> T callOne(int index, String what, String lockName, Function<RedisNodeClient, T> action, long timeoutMillis) {
        RedisNodeClient node = nodes.get(index);
        java.util.concurrent.Future<T> f;
        try {
            f = lane(index, lockName).submit(() -> action.apply(node));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new LockStoreException("lock store is closed (" + what + ")", e);
        }
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(false);
            throw late(node, what, timeoutMillis);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof LockStoreException l) {
                throw l;
            }
            throw new NodeException(
                    node.address(),
                    "Redis " + node.address() + " failed to " + what + ": " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException(
                    "interrupted while waiting for Redis " + node.address() + " (" + what + ")", e);
        }
    }

    private static NodeTimeoutException late(RedisNodeClient node, String what, long timeoutMillis) {
        return new NodeTimeoutException(
                node.address(),
                "Redis " + node.address() + " did not answer within " + timeoutMillis + " ms (" + what
                        + "): the node is slow, paused or unreachable");
    }

    List<RedisNodeClient> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        for (ThreadPoolExecutor[] l : lanes) {
            for (ThreadPoolExecutor ex : l) {
                ex.shutdown();
            }
        }
    }

    /** Collects replies and opens the latch once the outcome is decided. */
    private static final class Tally<T> {
        final CountDownLatch done = new CountDownLatch(1);
        private final List<NodeReply<T>> replies;
        private final Predicate<T> good;
        private final int need;
        private int answered;
        private int yes;
        private int no;
        private int failed;

        Tally(int n, Predicate<T> good, int need) {
            this.replies = new ArrayList<>(java.util.Collections.nCopies(n, null));
            this.good = good;
            this.need = need;
        }

        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();

        void put(NodeReply<T> r) {
            lock.lock();
            try {
                putLocked(r);
            } finally {
                lock.unlock();
            }
        }

        private void putLocked(NodeReply<T> r) {
            if (replies.get(r.node()) != null) {
                return;
            }
            replies.set(r.node(), r);
            answered++;
            if (!r.ok()) {
                failed++;
            } else if (good.test(r.value())) {
                yes++;
            } else {
                no++;
            }
            int n = replies.size();
            // "out of reach" alone is not decided: 2 busy + 1 down of 5 is "busy" or "3 down" by the rest
            boolean decided = need > 0 && (yes >= need || no >= need || failed > n - need);
            if (answered == n || decided) {
                done.countDown();
            }
        }

        List<NodeReply<T>> snapshot() {
            lock.lock();
            try {
                return new ArrayList<>(replies);
            } finally {
                lock.unlock();
            }
        }
    }
}
