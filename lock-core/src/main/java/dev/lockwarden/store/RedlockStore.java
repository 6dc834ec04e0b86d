package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Redlock over N independent Redis nodes (N odd, at least 3). Every call fans out to all nodes in
 * parallel with a short per-node timeout; a lock is ours while a majority of nodes holds our token.
 * <p>
 * Fencing tokens stay strictly increasing with a two-phase maximum: phase 1 (the acquire script)
 * INCRs the counter on each node, the token is the maximum {@code m} of those, and phase 2 raises
 * the counter on a majority to at least {@code m} before the token is handed out. Any later
 * acquirer's majority shares a node with that majority, so its token exceeds {@code m}. Why this
 * holds and what it assumes: {@code docs/redlock.md}.
 * <p>
 * Over 200 lines because the Redlock rules (two-phase fences, split votes, slow-quorum retry, majority folding for every call) are one algorithm, kept in one file as in go-redsync.
 */
public final class RedlockStore implements LockStore {
    /** Extra attempts after a split vote, with random pauses of up to 3, 5, 9 ms (at most ~17 ms in all). */
    private static final int MAX_SPLIT_RETRIES = 3;
    /** Marker result of an attempt whose votes were split (no owner has a majority). */
    private static final AcquireResult SPLIT = AcquireResult.busy(-1);

    private final RedisDeployment redis;
    private final NodeFanOut fanOut;
    /** Acquire and release, pipelined to the nodes where the deployment has pipelines. */
    private final RedlockPipelines pipelines;
    /**
     * Turns per lock name (striped by hash): 64 stripes make two busy names share a turn rarely
     * (a shared turn only serialises their attempts, it never blocks a wait) while costing 64 small
     * objects per manager instead of one lock per name ever seen.
     */
    private final ReentrantLock[] turns = new ReentrantLock[64];

    private final int quorum;
    private final long callTimeoutMillis;

    /**
     * @param redis             the independent nodes (odd count, at least 3)
     * @param callTimeoutMillis bound of calls that are not on the acquire path (release, inspection)
     */
    public RedlockStore(RedisDeployment redis, long callTimeoutMillis) {
        RedlockRules.checkNodeCount(redis.size());
        this.redis = redis;
        this.fanOut = redis.fanOut();
        this.pipelines = redis.pipelines() != null ? redis.pipelines() : RedlockPipelines.NONE;
        for (int i = 0; i < turns.length; i++) {
            turns[i] = new ReentrantLock();
        }
        this.quorum = redis.quorum();
        this.callTimeoutMillis = callTimeoutMillis;
    }

    /**
     * One Redlock attempt. If it failed only because nodes were slow (timeouts, e.g. a GC pause or a
     * starved CPU here rather than dead nodes), it is repeated once at once: a transient stall should
     * not surface as "quorum impossible" while dead nodes still fail fast.
     */
    @Override
    public AcquireResult tryAcquire(Lease lease, LockHolder holder, long deadlineNanos, boolean waiter) {
        // Threads of this JVM take turns per lock name: concurrent attempts on one name can only split
        // the votes between themselves. A turn lasts one attempt (a few round trips), never a wait.
        ReentrantLock turn = turns[Math.floorMod(lease.name().hashCode(), turns.length)];
        turn.lock();
        try {
            return tryAcquireInTurn(lease, holder, waiter);
        } finally {
            turn.unlock();
        }
    }

    private AcquireResult tryAcquireInTurn(Lease lease, LockHolder holder, boolean waiter) {
        for (int split = 0; ; split++) {
            AcquireResult r =
                    split == 0 ? attemptOrRetrySlow(lease, holder, waiter) : gatedAttempt(lease, holder, waiter);
            if (r.acquired() || r != SPLIT || split == MAX_SPLIT_RETRIES) {
                return r == SPLIT ? AcquireResult.busy(-1) : r;
            }
            // Contenders that start together can split the votes so that nobody gets a majority (and
            // would again in step). A random pause of a few ms breaks the symmetry: one gets ahead.
            sleepRandomMillis(1 + (2L << split));
        }
    }

    /**
     * After a split vote: take node 0 first, and go to all nodes only if it granted (or is down).
     * Contenders then queue on one node instead of splitting five; node 0 is asked again in the
     * parallel round, which is harmless because the acquire script is idempotent per token.
     */
    private AcquireResult gatedAttempt(Lease lease, LockHolder holder, boolean waiter) {
        try {
            AcquireResult gate = pipelines.acquireOne(
                    fanOut, 0, lease, holder, waiter, RedlockRules.nodeTimeoutMillis(lease.ttlMillis()));
            if (!gate.acquired()) {
                return AcquireResult.busy(gate.holderTtlMillis());
            }
        } catch (LockStoreException e) {
            // node 0 is down or slow: the plain parallel attempt decides without it
        }
        return attemptOrRetrySlow(lease, holder, waiter);
    }

    private AcquireResult attemptOrRetrySlow(Lease lease, LockHolder holder, boolean waiter) {
        try {
            return attempt(lease, holder, waiter);
        } catch (RedlockVotes.SlowQuorumException e) {
            try {
                return attempt(lease, holder, waiter);
            } catch (RedlockVotes.SlowQuorumException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    private static void sleepRandomMillis(long bound) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(bound));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("interrupted while retrying a split Redlock vote", e);
        }
    }

    private AcquireResult attempt(Lease lease, LockHolder holder, boolean waiter) {
        long start = System.nanoTime();
        long nodeTimeout = RedlockRules.nodeTimeoutMillis(lease.ttlMillis());
        String what = "acquire '" + lease.name() + "'";
        List<NodeReply<AcquireResult>> phase1 = pipelines.acquire(fanOut, lease, holder, waiter, nodeTimeout, quorum);
        long fence = 0;
        int acquired = 0;
        List<Long> busyTtls = new ArrayList<>();
        for (NodeReply<AcquireResult> r : phase1) {
            if (r.ok() && r.value().acquired()) {
                acquired++;
                fence = Math.max(fence, r.value().fence());
            } else if (r.ok() && r.value().holderTtlMillis() >= 0) {
                busyTtls.add(r.value().holderTtlMillis());
            }
        }
        List<? extends NodeReply<?>> failedStep = phase1;
        if (acquired >= quorum) {
            long m = fence;
            // Phase 2 only when the counters are out of step: if a majority already holds a counter
            // of m, the next holder's majority must see it. A clock-floored fence (counter behind)
            // is stored by phase 2 only.
            boolean inStep = RedlockVotes.atMaximum(phase1, m) >= quorum;
            List<NodeReply<Boolean>> phase2 =
                    inStep ? List.of() : pipelines.raiseFence(fanOut, lease, m, nodeTimeout, quorum);
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long validity = lease.ttlMillis() - elapsed - redis.driftMillis(lease.ttlMillis());
            if ((inStep || RedlockVotes.count(phase2) >= quorum) && validity > 0) {
                // Every key was set after start, so the lock is valid until start + ttl: report that span
                // from the attempt start, as AcquireResult defines it. Drift is not taken off here: the
                // engine subtracts it once when it turns the validity into the handle's deadline.
                return AcquireResult.acquired(m, lease.ttlMillis());
            }
            failedStep = phase2;
        }
        releaseEverywhere(lease, nodeTimeout);
        if (redis.tooManyFailures(RedlockVotes.errors(failedStep))) {
            throw RedlockVotes.quorumImpossible(what, failedStep, quorum);
        }
        // busy only if another owner holds a majority; otherwise the votes were split
        return busyTtls.size() >= quorum ? AcquireResult.busy(RedlockVotes.median(busyTtls)) : SPLIT;
    }

    @Override
    public boolean release(Lease lease, long keepMillis) {
        return release(lease, ReleaseScript.Wake.IF_WAITED, keepMillis);
    }

    /** Always sends the release message: see {@link LockStore#release(Lease, long, Runnable)}. */
    @Override
    public boolean release(Lease lease, long keepMillis, Runnable sent) {
        boolean ours = release(lease, ReleaseScript.Wake.ALWAYS, keepMillis);
        if (ours) {
            sent.run();
        }
        return ours;
    }

    private boolean release(Lease lease, ReleaseScript.Wake wake, long keepMillis) {
        List<NodeReply<Boolean>> r =
                pipelines.release(fanOut, lease, wake, keepMillis, callTimeoutMillis, Boolean::booleanValue, quorum);
        if (redis.tooManyFailures(RedlockVotes.errors(r))) {
            throw RedlockVotes.quorumImpossible("release '" + lease.name() + "'", r, quorum);
        }
        return RedlockVotes.count(r) >= quorum;
    }

    @Override
    public boolean[] releaseAll(List<Lease> leases, long[] keepMillis) {
        boolean[] ours = new boolean[leases.size()];
        if (leases.isEmpty()) {
            return ours;
        }
        String what = "release " + leases.size() + " lock(s)";
        List<NodeReply<boolean[]>> replies =
                fanOut.call(what, null, n -> n.releaseMany(leases, keepMillis), callTimeoutMillis, x -> true, 0);
        if (redis.tooManyFailures(RedlockVotes.errors(replies))) {
            throw RedlockVotes.quorumImpossible(what, replies, quorum);
        }
        return RedlockVotes.perLease(replies, ours.length, quorum);
    }

    /**
     * Extends on every node in parallel; ours only if a majority confirms within the new validity
     * ({@code ttl - elapsed - drift > 0}). When that fails the partial holds are given back, so a
     * lost handle does not keep blocking others for the new TTL.
     */
    @Override
    public long extend(Lease lease) {
        long start = System.nanoTime();
        String what = "extend '" + lease.name() + "'";
        List<NodeReply<Boolean>> r = fanOut.call(
                what,
                lease.name(),
                n -> n.extend(lease),
                RedlockRules.nodeTimeoutMillis(lease.ttlMillis()),
                Boolean::booleanValue,
                quorum);
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (RedlockVotes.count(r) >= quorum && lease.ttlMillis() - elapsed - redis.driftMillis(lease.ttlMillis()) > 0) {
            return lease.ttlMillis();
        }
        if (redis.tooManyFailures(RedlockVotes.errors(r))) {
            throw RedlockVotes.quorumImpossible(what, r, quorum);
        }
        releaseEverywhere(lease, RedlockRules.nodeTimeoutMillis(lease.ttlMillis()));
        return -1;
    }

    @Override
    public boolean[] refresh(List<Lease> leases) {
        boolean[] ours = new boolean[leases.size()];
        if (leases.isEmpty()) {
            return ours;
        }
        long minTtl = leases.stream().mapToLong(Lease::ttlMillis).min().orElseThrow();
        // refresh is off the caller's path: give slow nodes more time than an acquire gets
        long timeout = Math.max(RedlockRules.nodeTimeoutMillis(minTtl), minTtl / 5);
        String what = "refresh " + leases.size() + " lock(s)";
        List<NodeReply<boolean[]>> replies = fanOut.call(what, null, n -> n.refresh(leases), timeout, x -> true, 0);
        if (redis.tooManyFailures(RedlockVotes.errors(replies))) {
            throw RedlockVotes.quorumImpossible(what, replies, quorum);
        }
        return RedlockVotes.perLease(replies, ours.length, quorum);
    }

    /** Closes the deployment: its fan-out threads and every node's connections. */
    @Override
    public void close() {
        redis.close();
    }

    /** Gives back a failed attempt's partial holds on every node, waiting at most one node timeout. */
    private void releaseEverywhere(Lease lease, long nodeTimeout) {
        pipelines.release(fanOut, lease, ReleaseScript.Wake.QUIET, 0, nodeTimeout, x -> true, 0);
    }
}
