package dev.lockwarden.inspect;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditSigner;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.FenceCounter;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.PageRequest;
import dev.lockwarden.store.ForceRelease;
import dev.lockwarden.store.JvmRecord;
import dev.lockwarden.store.LockNames;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.store.StoreFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link LockInspector} over one {@link RedisDeployment}: a single node or cluster, or the independent
 * nodes of a Redlock (where a lock shows when a quorum of nodes hold it, with those nodes in
 * {@link LockInfo#nodes()}). It checks the input and hands each job to its class: paging
 * ({@link LockPager}), counting ({@link LockCounter}), reading locks ({@link LockReader}), force-release
 * ({@link ForceRelease}, next to its script in the store layer), overviews and audit ({@link Overviews}), events ({@link EventReader})
 * and activity ({@link ActivityReader}).
 * <p>
 * Over 200 lines because it is the one implementation of the whole {@link LockInspector} interface: each
 * method is a few lines of argument checks handing over to the class that does the job.
 */
public final class RedisLockInspector implements LockInspector {
    static final int RELEASE_ALL_SCAN = 100_000;

    private final RedisDeployment redis;
    private final AuditSigner signer;
    private final LockReader reader;
    private final LockPager pager;
    private final LockCounter counter;
    private final ForceRelease forceRelease;
    private final Overviews overviews;
    private final EventReader events;
    private final ActivityReader activity;

    /**
     * @param auditMaxLen  the audit stream is never trimmed below this many entries
     * @param eventsMaxLen approximate cap of the events stream
     */
    public RedisLockInspector(RedisDeployment redis, long auditMaxLen, long eventsMaxLen) {
        this(redis, auditMaxLen, eventsMaxLen, null);
    }

    /**
     * @param signer seals each force-release's audit record into the stream's MAC chain and checks the chain when
     *               the audit is read (null = unsealed records, unchecked)
     */
    public RedisLockInspector(RedisDeployment redis, long auditMaxLen, long eventsMaxLen, AuditSigner signer) {
        this.redis = redis;
        this.signer = signer;
        this.reader = new LockReader(redis);
        this.pager = new LockPager(redis, reader);
        this.counter = new LockCounter(redis);
        this.forceRelease = new ForceRelease(redis, auditMaxLen, eventsMaxLen, signer == null ? null : signer::seal);
        this.overviews = new Overviews(redis.nodes());
        this.events = new EventReader(redis);
        this.activity = new ActivityReader(redis);
    }

    @Override
    public LockPage list(LockFilter filter, PageRequest page) {
        return pager.list(filter, page);
    }

    @Override
    public List<Long> keyCounts() {
        return pager.keyCounts();
    }

    @Override
    public dev.lockwarden.LockCount count(Duration budget) {
        return counter.count(budget);
    }

    @Override
    public List<LockInfo> getAll(List<String> names) {
        names.forEach(LockNames::check);
        return reader.read(List.copyOf(names));
    }

    @Override
    public Optional<LockInfo> get(String name) {
        LockNames.check(name);
        List<LockInfo> r = reader.read(List.of(name));
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }

    /** The highest counter of the nodes that answer (a quorum must). */
    @Override
    public long fenceOf(String name) {
        LockNames.check(name);
        long max = 0;
        List<String> failures = new ArrayList<>();
        for (RedisNodeClient node : redis.nodes()) {
            try {
                max = Math.max(max, node.currentFence(name));
            } catch (LockStoreException e) {
                failures.add(e.getMessage());
            }
        }
        redis.requireQuorum("read the fence of '" + name + "'", failures);
        return max;
    }

    @Override
    public ForceReleaseResult forceRelease(String name, String operator) {
        LockNames.check(name);
        // who holds it, for the audit record (the info hash has only the per-lock part)
        dev.lockwarden.HolderInfo holder = operator == null || operator.isBlank()
                ? null
                : get(name).map(LockInfo::holder).orElse(null);
        return forceRelease(name, "", 0, operator, holder);
    }

    @Override
    public ForceReleaseResult forceRelease(LockInfo seen, String operator) {
        LockNames.check(seen.name());
        if (seen.tokenId().isEmpty()) {
            throw new IllegalArgumentException(
                    "the LockInfo of '" + seen.name() + "' has no token id: read it with get() or list()");
        }
        return forceRelease(seen.name(), seen.tokenId(), seen.fencingToken(), operator, seen.holder());
    }

    private ForceReleaseResult forceRelease(
            String name, String tokenSha1, long fence, String operator, dev.lockwarden.HolderInfo holder) {
        JvmRecord jvm = holder == null ? null : new JvmRecord(holder.application(), holder.host(), holder.pid());
        ForceRelease.Outcome o = forceRelease.run(name, tokenSha1, fence, operator, jvm);
        List<ForceReleaseResult.OnNode> nodes = o.nodes().stream()
                .map(n -> new ForceReleaseResult.OnNode(
                        n.node(),
                        ForceReleaseResult.State.valueOf(n.outcome().toUpperCase(java.util.Locale.ROOT)),
                        n.auditId(),
                        n.problem()))
                .toList();
        return new ForceReleaseResult(name, o.released(), o.oldFence(), o.newFence(), o.auditId(), nodes);
    }

    @Override
    public List<FenceCounter> fences(String prefix, int max) {
        return overviews.fences(prefix == null ? "" : prefix, Math.max(1, max));
    }

    @Override
    public List<ClientInfo> clients(int maxLocksScanned) {
        return overviews.clients(Math.max(1, maxLocksScanned), reader::read);
    }

    /** Bounded: scans at most {@value #RELEASE_ALL_SCAN} locks. */
    @Override
    public List<ForceReleaseResult> releaseAllOf(String jvmId, String operator) {
        if (jvmId == null || jvmId.isBlank()) {
            throw new IllegalArgumentException("releaseAllOf needs the client's JVM id");
        }
        List<LockInfo> owned = overviews.locks(RELEASE_ALL_SCAN, reader::read).stream()
                .filter(i -> jvmId.equals(i.holder().jvmId()))
                .toList();
        if (owned.stream().anyMatch(LockInfo::holderAlive)) {
            throw new IllegalStateException("client " + jvmId
                    + " is alive (its heartbeat is present): release its locks one by one if you must");
        }
        List<ForceReleaseResult> out = new ArrayList<>();
        for (LockInfo i : owned) {
            out.add(forceRelease(i, operator));
        }
        return out;
    }

    @Override
    public List<AuditRecord> audit(int max) {
        return overviews.audit(Math.max(1, Math.min(max, 10_000)), signer);
    }

    @Override
    public List<ActivityCount> activity(Duration window) {
        return activity.read(window);
    }

    @Override
    public List<LockEvent> events(String name) {
        LockNames.check(name);
        return events.events(name, get(name));
    }

    @Override
    public List<String> replicas() {
        if (redis.topology() == StoreFactory.Topology.REDLOCK || redis.topology() == StoreFactory.Topology.CLUSTER) {
            return List.of();
        }
        RedisNodeClient master = redis.first();
        String info = master.call("INFO replication", () -> master.redis().info("replication"));
        List<String> replicas = new ArrayList<>();
        for (String line : info.split("\r?\n")) { // slave0:ip=10.0.0.2,port=6379,state=online,offset=42,lag=0
            if (line.startsWith("slave") && line.contains(":ip=")) {
                java.util.Map<String, String> f = new java.util.HashMap<>();
                for (String kv : line.substring(line.indexOf(':') + 1).split(",")) {
                    int eq = kv.indexOf('=');
                    if (eq > 0) {
                        f.put(kv.substring(0, eq), kv.substring(eq + 1).strip());
                    }
                }
                replicas.add(f.get("ip") + ":" + f.get("port") + " " + f.get("state") + ", lag " + f.get("lag") + " s");
            }
        }
        return replicas;
    }
}
