package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * Force-release with everything it writes: force-release.lua on every node (in parallel, through the
 * deployment's fan-out), which deletes the lock, bumps the fence and appends the audit record and the
 * lock's history and tells the holder; then, over Redlock, every node's counter lifted to the highest (so
 * no node lags behind the bump) and, when some node did not hold the lock, the holder told there too
 * (it listens on one node), and the event in the capped events stream. A quorum of nodes must answer; the
 * lock counts as released when a quorum released it (a minority holding the seen token is a stale
 * leftover; the new holder keeps the lock).
 */
public final class ForceRelease {
    /** Bound of each node's answer: force-release is an operator's action, not on a lock's path. */
    private static final long NODE_TIMEOUT_MILLIS = 10_000;

    private final RedisDeployment redis;
    private final long auditMaxLen;
    private final long eventsMaxLen;

    /**
     * @param auditMaxLen  the audit stream is never trimmed below this many entries
     * @param eventsMaxLen approximate cap of the events stream ({@code MAXLEN ~}), as for every other event
     */
    public ForceRelease(RedisDeployment redis, long auditMaxLen, long eventsMaxLen) {
        this.redis = redis;
        this.auditMaxLen = auditMaxLen;
        this.eventsMaxLen = eventsMaxLen;
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
        List<ForceReleaseScript.Reply> replies = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (NodeReply<ForceReleaseScript.Reply> r : redis.onEveryNode(
                "force-release '" + name + "'",
                name,
                n -> onNode(n, name, tokenSha1, fence, audit),
                NODE_TIMEOUT_MILLIS)) {
            if (r.ok()) {
                replies.add(r.value());
            } else {
                failures.add(
                        r.error() == null
                                ? "node " + r.node() + " gave no answer"
                                : r.error().getMessage());
            }
        }
        redis.requireQuorum("force-release '" + name + "'", failures);
        long newFence = 0;
        List<Long> oldFences = new ArrayList<>();
        Set<String> removedTokens = new HashSet<>();
        int released = 0;
        String auditId = null;
        for (ForceReleaseScript.Reply r : replies) {
            newFence = Math.max(newFence, r.newFence());
            if (r.released()) {
                released++;
                oldFences.add(r.oldFence());
                removedTokens.add(r.tokenSha1());
                auditId = auditId == null ? r.auditId() : auditId;
            }
        }
        long oldFence = AgreedFence.of(oldFences);
        if (redis.size() > 1) {
            long highest = newFence; // a node that is down is covered by the majority argument
            // a node that did not remove the holder did not tell it: its manager may listen right there
            Set<String> tell = released > 0 && released < redis.size() ? removedTokens : Set.of();
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
        if (released < redis.quorum()) {
            return new Outcome(false, 0, newFence, null);
        }
        recordEvent(name, operator, oldFence, audit.get("at"));
        return new Outcome(true, oldFence, newFence, auditId);
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
     */
    public record Outcome(boolean released, long oldFence, long newFence, String auditId) {}

    /**
     * force-release.lua on one node: only if the lock still has the token whose SHA-1 is {@code tokenSha1}
     * ("" = any holder) and a fence not above {@code fence} (0 = any), it deletes the lock, bumps the fence,
     * appends {@code audit} to the lock's capped history and, off a cluster, to {@link KeySpace#AUDIT}, wakes
     * waiters and notifies the holder. On a cluster, where one script touches one slot only, the audit stream
     * is written right after.
     */
    private ForceReleaseScript.Reply onNode(
            RedisNodeClient node, String name, String tokenSha1, long fence, Map<String, String> audit) {
        ForceReleaseScript.Reply r = node.forceRelease(name, tokenSha1, fence, audit, auditMaxLen);
        return r.released() && node.singleSlotScriptsOnly() ? r.withAuditId(copyToAudit(node, name, r.historyId())) : r;
    }

    /** Cluster only: the audit record the script wrote into the lock's history, appended to the global stream. */
    private String copyToAudit(RedisNodeClient node, String name, String historyId) {
        StreamEntryID id = new StreamEntryID(historyId);
        String history = node.keySpace().history(name);
        return node.call("write the audit record of '" + name + "'", () -> {
            List<StreamEntry> e = node.redis().xrange(history, id, id);
            Map<String, String> fields = new LinkedHashMap<>(
                    e.isEmpty() ? Map.of("name", name) : e.get(0).getFields());
            fields.remove("type");
            return node.redis()
                    .xadd(
                            KeySpace.AUDIT,
                            XAddParams.xAddParams().maxLen(auditMaxLen).approximateTrimming(),
                            fields)
                    .toString();
        });
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
