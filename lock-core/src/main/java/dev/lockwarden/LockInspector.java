package dev.lockwarden;

import java.util.List;
import java.util.Optional;

/**
 * Read and repair access to held locks, for dashboards and operators. Listing uses SCAN,
 * never KEYS, so it is safe on a busy production Redis.
 */
public interface LockInspector {

    /** One page of held locks matching the filter. */
    LockPage list(LockFilter filter, PageRequest page);

    /**
     * The named locks that are held right now, in the given order, read in one pipelined round trip
     * per node: what a dashboard re-reads to refresh the rows it shows.
     */
    List<LockInfo> getAll(List<String> names);

    /** The lock if it is held right now. */
    Optional<LockInfo> get(String name);

    /** The fencing counter of a lock: the last token handed out (0 if never taken). */
    long fenceOf(String name);

    /**
     * Deletes the lock whoever holds it, bumps its fence (so the old holder's token is stale) and
     * writes an audit record naming {@code operator}. The old holder's next refresh fails and its
     * handle becomes lost.
     */
    ForceReleaseResult forceRelease(String name, String operator);

    /**
     * Force-releases the lock only if it is still the acquisition the operator saw: same token
     * ({@link LockInfo#tokenId()}) and fence. Otherwise nothing changes and the result is not
     * {@code released} (the lock changed hands or is free). One atomic script per node bumps the
     * fence, writes the audit record naming {@code operator} and notifies the holder; over Redlock
     * it runs on every node in parallel and counts as released when a majority released.
     */
    ForceReleaseResult forceRelease(LockInfo seen, String operator);

    /**
     * Fencing counters whose lock name starts with {@code prefix}, free locks included, at most
     * {@code max} (SCAN, bounded), sorted by name.
     */
    List<FenceCounter> fences(String prefix, int max);

    /**
     * Client JVMs: live ones by heartbeat, plus dead ones still owning locks, found by scanning at
     * most {@code maxLocksScanned} locks.
     */
    List<ClientInfo> clients(int maxLocksScanned);

    /**
     * Force-releases every lock held by a client JVM whose heartbeat is gone, each through the safe
     * force-release (one audit record per lock). Refused while the JVM is alive.
     */
    List<ForceReleaseResult> releaseAllOf(String jvmId, String operator);

    /** The newest {@code max} force-release audit records, newest first. */
    List<AuditRecord> audit(int max);

    /**
     * Per-application, per-minute activity of the last {@code window} (at most the one hour the
     * counts are kept), sorted by application and minute. Clients publish their counts every 5 s,
     * so the current minute lags by up to that. Read with SCAN (never KEYS) over
     * {@code lockwarden:activity:*}; over Redlock from the first node that answers (clients write
     * their counts to their first node only, as their events); on a cluster from every master.
     */
    List<ActivityCount> activity(java.time.Duration window);

    /** Recent events of one lock, newest first. */
    List<LockEvent> events(String name);
}
