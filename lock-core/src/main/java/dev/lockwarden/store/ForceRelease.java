package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.params.XAddParams;

/**
 * Force-release with everything it writes: force-release.lua on every node (in parallel, through the
 * deployment's fan-out), which deletes the lock, bumps the fence and appends the audit record and the
 * lock's history and tells the holder; then, over Redlock, every node's counter lifted to the highest (so
 * no node lags behind the bump) and, when some node did not hold the lock, the holder told there too
 * (it listens on one node), and the event in the capped events stream. A quorum of nodes must answer; the
 * lock counts as released when a quorum released it (a minority holding the seen token is a stale
 * leftover; the new holder keeps the lock), and the outcome says what happened on each node.
 * <p>
 * All or nothing: the script reads every key's type before it writes anything, and where one script does
 * not see every key (Redlock's other nodes, Cluster's audit stream in another slot) {@link ForceReleaseKeys}
 * reads them on every node first; a key of another type is a {@link WrongKeyTypeException} naming it, and
 * nothing was written.
 * <p>
 * Over 200 lines because the per-node outcome, the Redlock fence lift, the holder's message and the audit
 * copy are steps of one operator action whose order matters; each step is a short method here.
 */
public final class ForceRelease {
    /** Bound of each node's answer: force-release is an operator's action, not on a lock's path. */
    private static final long NODE_TIMEOUT_MILLIS = 10_000;

    private final RedisDeployment redis;
    private final long auditMaxLen;
    private final long eventsMaxLen;
    /** Null: audit records are not sealed. */
    private final AuditSealer sealer;

    /**
     * @param auditMaxLen  the audit stream is never trimmed below this many entries
     * @param eventsMaxLen approximate cap of the events stream ({@code MAXLEN ~}), as for every other event
     */
    public ForceRelease(RedisDeployment redis, long auditMaxLen, long eventsMaxLen) {
        this(redis, auditMaxLen, eventsMaxLen, null);
    }

    /** @param sealer seals each audit record into the stream's MAC chain (null = unsealed records) */
    public ForceRelease(RedisDeployment redis, long auditMaxLen, long eventsMaxLen, AuditSealer sealer) {
        this.redis = redis;
        this.auditMaxLen = auditMaxLen;
        this.eventsMaxLen = eventsMaxLen;
        this.sealer = sealer;
    }

    /**
     * @param tokenSha1 SHA-1 of the holder's token to release, "" = whoever holds it
     * @param fence     the fence seen, 0 = any
     * @param operator  who releases it, for the audit record
     * @param holder    who holds it as the caller read it (null = unknown), for the audit record
     */
    public Outcome run(String name, String tokenSha1, long fence, String operator, JvmRecord holder) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException(
                    "force-release of '" + name + "' needs the operator's name for the audit record");
        }
        Map<String, String> audit = new LinkedHashMap<>();
        audit.put("name", name);
        audit.put("operator", operator);
        audit.put("at", Long.toString(System.currentTimeMillis()));
        if (holder != null && !holder.application().isEmpty()) {
            // the lock's info hash has only the per-lock part: application, host and pid come from the caller
            audit.put("holder.app", holder.application());
            audit.put("holder.host", holder.host());
            audit.put("holder.pid", Long.toString(holder.pid()));
        }
        ForceReleaseKeys.checkEveryNode(redis, name, NODE_TIMEOUT_MILLIS);
        List<NodeReply<ForceReleaseScript.Reply>> answers = redis.onEveryNode(
                "force-release '" + name + "'",
                name,
                n -> onNode(n, name, tokenSha1, fence, audit),
                NODE_TIMEOUT_MILLIS);
        if (redis.size() == 1 && !answers.get(0).ok()) {
            throw answers.get(0).error(); // names the node and, for a key of another type, the key and the fix
        }
        List<OnNode> nodes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        long newFence = 0;
        List<Long> oldFences = new ArrayList<>();
        Set<String> removedTokens = new HashSet<>();
        String auditId = null;
        for (NodeReply<ForceReleaseScript.Reply> a : answers) {
            String at = redis.nodes().get(a.node()).masterOf(redis.keySpace().lock(name));
            if (!a.ok()) {
                String why = a.error() == null
                        ? "node " + at + " gave no answer"
                        : a.error().getMessage();
                failures.add(why);
                nodes.add(new OnNode(at, "failed", null, why));
                continue;
            }
            ForceReleaseScript.Reply r = a.value();
            newFence = Math.max(newFence, r.newFence());
            if (r.released()) {
                oldFences.add(r.oldFence());
                removedTokens.add(r.tokenSha1());
                auditId = auditId == null ? r.auditId() : auditId;
            }
            nodes.add(new OnNode(at, r.outcome(), r.auditId(), r.auditProblem()));
        }
        redis.requireQuorum("force-release '" + name + "'", failures);
        long oldFence = AgreedFence.of(oldFences);
        if (redis.size() > 1) {
            long highest = newFence; // a node that is down is covered by the majority argument
            // a node that did not remove the holder did not tell it: its manager may listen right there
            Set<String> tell = !oldFences.isEmpty() && oldFences.size() < redis.size() ? removedTokens : Set.of();
            redis.onEveryNode(
                    "raise the fence of '" + name + "'",
                    name,
                    n -> {
                        boolean raised = n.raiseFence(name, "", highest);
                        tell(n, name, tell, highest, operator);
                        return raised;
                    },
                    NODE_TIMEOUT_MILLIS);
        }
        if (oldFences.size() < redis.quorum()) {
            // a minority's leftover (or nothing) was removed: not a held lock, but said per node
            return new Outcome(false, oldFences.isEmpty() ? 0 : oldFence, newFence, auditId, nodes);
        }
        recordEvent(name, operator, oldFence, audit.get("at"));
        return new Outcome(true, oldFence, newFence, auditId, nodes);
    }

    /** Publishes the holder's message on one node, best effort: if it fails, the holder's next refresh tells it. */
    private static void tell(RedisNodeClient n, String name, Set<String> tokens, long fence, String operator) {
        for (String sha1 : tokens) {
            String message = new ForceReleased(name, sha1, Long.toString(fence), operator).encode();
            try {
                n.call(
                        "tell the holder of '" + name + "'",
                        () -> n.redis().publish(n.keySpace().forceReleasedChannel(), message));
            } catch (LockStoreException e) {
                // the lock is released and the fence raised all the same
            }
        }
    }

    /**
     * What a force-release did.
     *
     * @param released whether a quorum of nodes removed the holder
     * @param oldFence the removed holder's fence (0 if none)
     * @param newFence the highest counter after the bump
     * @param auditId  id of the audit record (null if nothing was released)
     * @param nodes    what happened on each node, in node order
     */
    public record Outcome(boolean released, long oldFence, long newFence, String auditId, List<OnNode> nodes) {}

    /**
     * One node's part (see {@code ForceReleaseResult.OnNode}).
     *
     * @param node    the node's address (on a cluster: the master owning the lock)
     * @param outcome {@code released}, {@code free}, {@code changed} or {@code failed}
     * @param auditId the audit record's id there, or null
     * @param problem the node's error, or a failed audit copy after a release, or null
     */
    public record OnNode(String node, String outcome, String auditId, String problem) {}

    /**
     * force-release.lua on one node: only if the lock still has the token whose SHA-1 is {@code tokenSha1}
     * ("" = any holder) and a fence not above {@code fence} (0 = any), it deletes the lock, bumps the fence,
     * appends {@code audit} to the lock's capped history and, off a cluster, to {@link KeySpace#AUDIT}, wakes
     * waiters and notifies the holder. On a cluster, where one script touches one slot only, the audit stream
     * is written right after ({@link ClusterAuditCopy}, once), with the record the script returned: the history
     * entry it also wrote is the application's to change by then.
     */
    private ForceReleaseScript.Reply onNode(
            RedisNodeClient node, String name, String tokenSha1, long fence, Map<String, String> audit) {
        ForceReleaseScript.Reply r = sealer == null || node.singleSlotScriptsOnly()
                ? AuditSealer.unsealed(node, name, tokenSha1, fence, audit, auditMaxLen)
                : AuditSealer.forceRelease(sealer, node, name, tokenSha1, fence, audit, auditMaxLen);
        if (!r.released() || !node.singleSlotScriptsOnly()) {
            return r; // the script wrote the audit stream, or an application's user may not: in the history only
        }
        try {
            return r.withAudit(
                    ClusterAuditCopy.copy(node, name, r.historyId(), r.auditRecord(), auditMaxLen, sealer), null);
        } catch (LockStoreException e) {
            // the lock is released: say so, with where the record is, rather than fail the whole call
            return r.withAudit(
                    null,
                    "the audit record was not copied to " + KeySpace.AUDIT + " (" + e.getMessage() + "); it is in "
                            + node.keySpace().history(name) + " as " + r.historyId());
        }
    }

    /** The events stream, capped like every event (best effort: the audit record is already written atomically). */
    private void recordEvent(String name, String operator, long oldFence, String at) {
        RedisNodeClient first = redis.first();
        try {
            first.call(
                    "write event",
                    () -> first.redis()
                            .xadd(
                                    KeySpace.EVENTS,
                                    XAddParams.xAddParams().maxLen(eventsMaxLen).approximateTrimming(),
                                    Map.of(
                                            "type",
                                            "force-release",
                                            "name",
                                            name,
                                            "fence",
                                            Long.toString(oldFence),
                                            "operator",
                                            operator,
                                            "at",
                                            at)));
        } catch (LockStoreException e) {
            // the event stream is informative only
        }
    }
}
