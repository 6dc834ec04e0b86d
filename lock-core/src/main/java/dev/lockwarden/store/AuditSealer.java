package dev.lockwarden.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * Seals an audit record into the MAC chain of the audit stream (the API's {@code AuditSigner#seal}): adds the
 * fields that name the previous record and the MAC. Null where the manager holds no key: records are unsealed.
 */
@FunctionalInterface
public interface AuditSealer {
    /** Times a record is sealed again when other records keep being appended before it (then an error). */
    int ATTEMPTS = 5;

    /**
     * @param fields  the record (changed in place)
     * @param prevId  id of the stream's last record, {@code 0-0} if none
     * @param prevMac that record's MAC, "" if none
     */
    void seal(Map<String, String> fields, String prevId, String prevMac);

    /** A copy of {@code fields} sealed after the current last record of {@link KeySpace#AUDIT} on {@code node}. */
    static Map<String, String> sealedAfterLast(AuditSealer sealer, RedisNodeClient node, Map<String, String> fields) {
        List<StreamEntry> last = node.call(
                "read the last audit record",
                () -> node.redis().xrevrange(KeySpace.AUDIT, (StreamEntryID) null, null, 1));
        Map<String, String> sealed = new LinkedHashMap<>(fields);
        sealer.seal(
                sealed,
                last.isEmpty() ? "0-0" : last.get(0).getID().toString(),
                last.isEmpty() ? "" : last.get(0).getFields().getOrDefault("mac", ""));
        return sealed;
    }

    /**
     * force-release.lua with the record sealed after the audit stream's last record, which the script checks is
     * still the last ('moved' otherwise: sealed again, at most {@link #ATTEMPTS} times, then an error).
     */
    static ForceReleaseScript.Reply forceRelease(
            AuditSealer sealer,
            RedisNodeClient node,
            String name,
            String tokenSha1,
            long fence,
            Map<String, String> audit,
            long auditMaxLen) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Map<String, String> sealed = sealedAfterLast(sealer, node, audit);
            ForceReleaseScript.Reply r = node.forceRelease(name, tokenSha1, fence, sealed, auditMaxLen);
            if (!"moved".equals(r.outcome())) {
                return r;
            }
        }
        throw moved(node.address(), name);
    }

    /**
     * An application's force-release (no audit key). Its Redis user may not write the audit stream (docs/acl.md):
     * Redis then refuses the whole script before it runs (NOPERM on a key it names), and it runs again without
     * the audit stream, recorded in the lock's history and the events stream only.
     */
    static ForceReleaseScript.Reply unsealed(
            RedisNodeClient node,
            String name,
            String tokenSha1,
            long fence,
            Map<String, String> audit,
            long auditMaxLen) {
        try {
            return node.forceRelease(name, tokenSha1, fence, audit, auditMaxLen);
        } catch (NodeException e) {
            if (node.singleSlotScriptsOnly()
                    || e.getMessage() == null
                    || !e.getMessage().contains("NOPERM")) {
                throw e;
            }
            return node.forceRelease(name, tokenSha1, fence, audit, 0);
        }
    }

    /** The error after {@link #ATTEMPTS} attempts that each found another record appended first. */
    static NodeException moved(String node, String name) {
        return new NodeException(
                node,
                "cannot force-release '" + name + "' on " + node + ": " + ATTEMPTS + " times another record was"
                        + " appended to " + KeySpace.AUDIT + " between reading its last record and writing ours;"
                        + " nothing was released. Something writes the audit stream in a loop: find it (CLIENT"
                        + " LIST, ACL LOG) and try again");
    }
}
