package dev.lockwarden.store;

import java.util.List;

/** A {@link LockStore} on one Redis deployment: a single node, or a Redis Cluster through its cluster client. */
public final class RedisLockStore implements LockStore {
    private final RedisNodeClient node;

    public RedisLockStore(RedisNodeClient node) {
        this.node = node;
    }

    @Override
    public AcquireResult tryAcquire(Lease lease, LockHolder holder) {
        return node.acquire(lease, holder);
    }

    @Override
    public AcquireResult tryAcquire(Lease lease, LockHolder holder, long deadlineNanos) {
        return node.acquire(lease, holder, true, deadlineNanos);
    }

    @Override
    public boolean release(Lease lease, long keepMillis) {
        return node.release(lease, true, keepMillis);
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
    public List<RedisNodeClient> nodes() {
        return List.of(node);
    }

    @Override
    public String describe() {
        return node.address();
    }

    @Override
    public void close() {
        node.close();
    }
}
