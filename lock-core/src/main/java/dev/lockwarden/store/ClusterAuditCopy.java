package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * Redis Cluster only: the audit record force-release.lua wrote into the lock's history (one script touches one
 * hash slot), appended to {@link KeySpace#AUDIT} right after, exactly once. The record is the one the script
 * returned ({@link ForceReleaseScript.Reply#auditRecord}), never read back from the history: applications' ACL
 * may write the lock's keys, and the holder hears of the force-release before the copy runs, so a history entry
 * may be deleted or rewritten by then. The copy names the history entry ({@code historyId}, unique per
 * force-release), and each attempt first looks for that entry among the newest audit records: a call retried
 * after a broken connection ({@link RedisNodeClient#call}), whose first attempt was written but its reply lost,
 * does not write it twice.
 */
final class ClusterAuditCopy {
    /** Newest audit records an attempt looks through: far more than force-releases in the seconds of a retry. */
    static final int RETRY_LOOKBACK = 200;

    private static final LuaScript APPEND = LuaScript.load(ClusterAuditCopy.class, "audit-append.lua");

    private ClusterAuditCopy() {}

    /**
     * Appends {@code record}, the one force-release.lua wrote as the history entry {@code historyId} of
     * {@code name} ({@link ForceReleaseScript.Reply#auditRecord}), with {@code historyId}, unless it is there;
     * returns its id. With a {@code sealer}, it is sealed after the stream's last record and appended only if that
     * is still the last (audit-append.lua), else sealed again (bounded).
     */
    static String copy(
            RedisNodeClient node,
            String name,
            String historyId,
            Map<String, String> record,
            long auditMaxLen,
            AuditSealer sealer) {
        if (record == null) {
            throw new NodeException(
                    node.address(), "force-release.lua returned no audit record of '" + name + "' to copy");
        }
        Map<String, String> fields = new LinkedHashMap<>(record);
        for (String f : List.of("type", "prev", "prevMac", "signed", "mac")) {
            fields.remove(f);
        }
        fields.put("name", name);
        fields.put("historyId", historyId);
        return node.call("write the audit record of '" + name + "'", () -> {
            String written = find(node, name, historyId);
            if (written != null) {
                return written;
            }
            if (sealer == null) {
                return node.redis()
                        .xadd(
                                KeySpace.AUDIT,
                                XAddParams.xAddParams().maxLen(auditMaxLen).approximateTrimming(),
                                fields)
                        .toString();
            }
            for (int attempt = 0; attempt < AuditSealer.ATTEMPTS; attempt++) {
                Map<String, String> sealed = AuditSealer.sealedAfterLast(sealer, node, fields);
                Object added = append(sealed, auditMaxLen).run(node.redis());
                if (added != null) {
                    return added instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : added.toString();
                }
            }
            throw AuditSealer.moved(node.masterOf(KeySpace.AUDIT), name);
        });
    }

    /** audit-append.lua: XADD only if the stream's last record is still the one {@code sealed} names. */
    private static ScriptCall append(Map<String, String> sealed, long auditMaxLen) {
        List<Rawable> a =
                new ArrayList<>(List.of(Encoded.of(sealed.get("prev")), Encoded.of(Long.toString(auditMaxLen))));
        sealed.forEach((f, v) -> {
            a.add(Encoded.of(f));
            a.add(Encoded.of(v));
        });
        return new ScriptCall(APPEND, new Rawable[] {Encoded.of(KeySpace.AUDIT)}, a.toArray(Rawable[]::new));
    }

    /** The id of the audit record copied from {@code historyId} of {@code name}, among the newest; null if none. */
    static String find(RedisNodeClient node, String name, String historyId) {
        for (StreamEntry e : node.redis().xrevrange(KeySpace.AUDIT, (StreamEntryID) null, null, RETRY_LOOKBACK)) {
            if (historyId.equals(e.getFields().get("historyId"))
                    && name.equals(e.getFields().get("name"))) {
                return e.getID().toString();
            }
        }
        return null;
    }
}
