package dev.lockwarden.store;

import java.util.List;

/** A {@link LockStore} on one Redis deployment: a single node, or a Redis Cluster through its cluster client. */
public final class RedisLockStore implements LockStore {
    private final RedisDeployment redis;
    private final RedisNodeClient node;

    /** Over a deployment of one node (or one cluster client). */
    public RedisLockStore(RedisDeployment redis) {
        if (redis.size() != 1) {
            throw new IllegalArgumentException("RedisLockStore runs on one node; " + redis.size() + " given");
        }
        this.redis = redis;
        this.node = redis.first();
    }

    @Override
    public AcquireResult tryAcquire(Lease lease, LockHolder holder, long deadlineNanos, boolean waiter) {
        return node.acquire(lease, holder, true, deadlineNanos, waiter);
    }

    @Override
    public boolean release(Lease lease, long keepMillis) {
        return node.release(lease, ReleaseScript.Wake.IF_WAITED, keepMillis);
    }

    @Override
    public boolean release(Lease lease, long keepMillis, Runnable sent) {
        // the early hand-over needs the waiter's next attempt on the shared connection, behind this release; with
        // replica acknowledgement attempts run on a pooled connection (ReplicaWait), so wake the waiter after the
        // reply (a name is normally taken with the same options by every caller)
        if (node.sharesConnection() && !lease.acks().on()) {
            return node.release(lease, keepMillis, sent);
        }
        boolean ours = node.release(lease, ReleaseScript.Wake.ALWAYS, keepMillis);
        if (ours) {
            sent.run();
        }
        return ours;
    }

    @Override
    public boolean[] releaseAll(List<Lease> leases, long[] keepMillis) {
        return node.releaseMany(leases, keepMillis);
    }

    @Override
    public long extend(Lease lease) {
        return node.extend(lease) ? lease.ttlMillis() : -1;
    }

    @Override
    public boolean[] refresh(List<Lease> leases) {
        return node.refresh(leases);
    }

    @Override
    public Refreshed refreshEach(List<Lease> leases) {
        return node.refreshEach(leases);
    }

    @Override
    public void close() {
        redis.close();
    }
}
