package dev.lockwarden;

import java.util.List;
import java.util.Optional;

/**
 * Read and repair access to held locks, for dashboards and operators. Listing uses SCAN,
 * never KEYS, so it is safe on a busy production Redis.
 */
public interface LockInspector {

    /**
     * One page of held locks matching the filter.
     *
     * @param filter which locks (name prefix, application)
     * @param page   where to start ({@link PageRequest#first(int)}, then the returned cursor) and how many
     * @return the locks found and the cursor of the next page (null at the end)
     */
    LockPage list(LockFilter filter, PageRequest page);

    /**
     * Counts the held locks with SCAN (never KEYS) over every node (every Cluster master, every Redlock node, a lock
     * on several Redlock nodes counted once), for at most about {@code budget}: a dashboard's "locks held". Costs
     * Redis one SCAN per thousand keys; call it in the background and cache the result.
     *
     * @param budget how long the count may take; when it runs out the count stops and says it is not complete
     * @return the locks counted, and whether that is all of them
     * @throws LockStoreException Redis is unreachable
     */
    LockCount count(java.time.Duration budget);

    /**
     * How many keys (DBSIZE, one round trip each) each node {@link #list} scans holds now, in the order it scans
     * them: the one node, each Redlock node that answers, or each Cluster master. A page cursor names the node
     * it stopped in ({@code <node index>:<SCAN cursor>}), so with these a dashboard can tell how much of the key
     * space a listing has seen ("40 % of 300,000 keys scanned").
     *
     * @return the number of keys on each scanned node, in scan order (empty when this inspector cannot tell)
     * @throws LockStoreException Redis is unreachable
     */
    default List<Long> keyCounts() {
        return List.of();
    }

    /**
     * The named locks that are held right now, in the given order, read in one pipelined round trip
     * per node: what a dashboard re-reads to refresh the rows it shows.
     *
     * @param names lock names
     * @return the held ones among them; free locks are left out
     */
    List<LockInfo> getAll(List<String> names);

    /**
     * @param name lock name
     * @return the lock if it is held right now
     */
    Optional<LockInfo> get(String name);

    /**
     * @param name lock name
     * @return the fencing counter of the lock: the last token handed out (0 if never taken)
     */
    long fenceOf(String name);

    /**
     * Deletes the lock whoever holds it, bumps its fence (so the old holder's token is stale) and
     * writes an audit record naming {@code operator}. The old holder is told at once (its manager
     * listens for force-releases on its pub/sub connection): its handle becomes lost and its
     * {@code onLost} listeners run; if it could not hear it, its next refresh finds the token gone.
     *
     * @param name     lock name
     * @param operator who does it, for the audit record
     * @return whether a lock was released, with its old and new fence, the audit record's id and each node's part
     * @throws LockStoreException when a quorum of nodes could not do it, or when one of the lock's keys or the
     *                            audit stream holds a value of another type (another program wrote it): then
     *                            nothing was written on any node and the message names the key and the fix
     */
    ForceReleaseResult forceRelease(String name, String operator);

    /**
     * Force-releases the lock only if it is still the acquisition the operator saw: same token
     * ({@link LockInfo#tokenId()}) and fence. Otherwise nothing changes and the result is not
     * {@code released} (the lock changed hands or is free). One atomic script per node bumps the
     * fence, writes the audit record naming {@code operator} and notifies the holder; over Redlock
     * it runs on every node in parallel and counts as released when a majority released.
     *
     * @param seen     the lock as the operator saw it ({@link #get} or {@link #list})
     * @param operator who does it, for the audit record
     * @return whether that acquisition was released, with its old and new fence, the audit record's id and each
     *         node's part ({@link ForceReleaseResult#nodes()}: a minority release says so)
     * @throws LockStoreException as for {@link #forceRelease(String, String)}
     */
    ForceReleaseResult forceRelease(LockInfo seen, String operator);

    /**
     * Fencing counters whose lock name starts with {@code prefix}, free locks included, at most
     * {@code max} (SCAN, bounded), sorted by name.
     *
     * @param prefix lock name prefix ("" = all)
     * @param max    most counters returned
     * @return the counters, sorted by lock name
     */
    List<FenceCounter> fences(String prefix, int max);

    /**
     * Client JVMs: live ones by heartbeat, plus dead ones still owning locks, found by scanning at
     * most {@code maxLocksScanned} locks.
     *
     * @param maxLocksScanned bound of the scan for locks of dead clients
     * @return the clients, live and dead
     */
    List<ClientInfo> clients(int maxLocksScanned);

    /**
     * Force-releases every lock held by a client JVM whose heartbeat is gone, each through the safe
     * force-release (one audit record per lock). Refused while the JVM is alive.
     *
     * @param jvmId    the client's JVM id ({@link ClientInfo})
     * @param operator who does it, for the audit records
     * @return one result per lock found
     * @throws IllegalStateException the client's heartbeat is present
     */
    List<ForceReleaseResult> releaseAllOf(String jvmId, String operator);

    /**
     * The force-release audit. Over Redlock every node's stream is read and merged: a force-release recorded on
     * several nodes shows once (with the worst of its seals), one only some nodes recorded shows too. With an
     * {@link AuditSigner} ({@code LockManager.Builder.auditSigner}) each record's seal is checked.
     *
     * @param max most records returned (at most 10,000)
     * @return the newest force-release audit records, newest first
     */
    List<AuditRecord> audit(int max);

    /**
     * Per-application, per-minute activity of the last {@code window} (at most the one hour the
     * counts are kept), sorted by application and minute. Clients publish their counts every 5 s,
     * so the current minute lags by up to that. Read with SCAN (never KEYS) over
     * {@code lockwarden:activity:*}; over Redlock from the first node that answers (clients write
     * their counts to their first node only, as their events); on a cluster from every master.
     *
     * @param window how far back, rounded to minutes (1 minute to 1 hour)
     * @return one count per application and minute
     */
    List<ActivityCount> activity(java.time.Duration window);

    /**
     * @param name lock name
     * @return recent events of the lock, newest first
     */
    List<LockEvent> events(String name);

    /**
     * The replicas the Redis master reports now ({@code INFO replication}), on a single node or Sentinel (where
     * the master is the one the sentinels name now); empty without replicas, and on Redlock and Cluster.
     *
     * @return one line per replica, e.g. {@code 10.0.0.2:6379 online, lag 0 s}
     * @throws LockStoreException Redis is unreachable
     */
    default List<String> replicas() {
        return List.of();
    }
}
