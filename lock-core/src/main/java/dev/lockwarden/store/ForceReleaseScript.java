package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.args.Rawable;

/** force-release.lua on one node: its keys and arguments, and its reply ({@link ForceRelease} runs it). */
final class ForceReleaseScript {
    private static final LuaScript SCRIPT = LuaScript.load(ForceReleaseScript.class, "force-release.lua");

    private ForceReleaseScript() {}

    /**
     * Keys lock, info, fence, history, forced marker and, off a cluster ({@code withAudit}), the audit stream;
     * arguments release channel, fence retention, token SHA-1, fence, audit and history lengths, the
     * force-released channel ({@link ForceReleased}), then the audit record's field/value pairs.
     */
    static ScriptCall call(
            KeySpace keys,
            long fenceRetentionMillis,
            String name,
            String tokenSha1,
            long fence,
            Map<String, String> audit,
            long auditMaxLen,
            boolean withAudit) {
        List<Rawable> k = new ArrayList<>(List.of(
                Encoded.of(keys.lock(name)),
                Encoded.of(keys.info(name)),
                Encoded.of(keys.fence(name)),
                Encoded.of(keys.history(name)),
                Encoded.of(keys.forced(name))));
        if (withAudit && auditMaxLen > 0) { // 0: without the audit stream (an application's user may not write it)
            k.add(Encoded.of(KeySpace.AUDIT));
        }
        List<Rawable> a = new ArrayList<>(List.of(
                Encoded.of(keys.releasedChannel(name)),
                Encoded.of(Long.toString(fenceRetentionMillis)),
                Encoded.of(tokenSha1),
                Encoded.of(Long.toString(fence)),
                Encoded.of(Long.toString(auditMaxLen)),
                Encoded.of(Long.toString(KeySpace.HISTORY_MAX_LEN)),
                Encoded.of(keys.forceReleasedChannel())));
        audit.forEach((f, v) -> {
            a.add(Encoded.of(f));
            a.add(Encoded.of(v));
        });
        return new ScriptCall(SCRIPT, k.toArray(Rawable[]::new), a.toArray(Rawable[]::new));
    }

    /**
     * {0, outcome, counter} when nothing was released, else {1, old fence, new fence, history id, audit id, token
     * SHA-1, info field/value...} and, when the script did not write the audit stream (no KEYS[6]), last the
     * record it wrote into the history as a nested array of field/value items ({@link Reply#auditRecord}). The
     * info hash's values are strings: a holder cannot stand in for that array.
     *
     * @throws WrongKeyTypeException when the script found a key of another type ({2, 'wrongtype', key, type, expected}) and
     *                       changed nothing: names the key, its type and the fix
     */
    static Reply reply(Object raw, RedisNodeClient node, String name) {
        List<?> reply = (List<?>) raw;
        if (((Long) reply.get(0)) == 2L) {
            throw ForceReleaseKeys.wrongType(
                    node.masterOf(node.keySpace().lock(name)),
                    name,
                    String.valueOf(reply.get(2)),
                    String.valueOf(reply.get(3)),
                    String.valueOf(reply.get(4)));
        }
        if (((Long) reply.get(0)) == 0L) {
            return new Reply(
                    String.valueOf(reply.get(1)),
                    0,
                    Long.parseLong(String.valueOf(reply.get(2))),
                    null,
                    null,
                    null,
                    Map.of(),
                    null,
                    null);
        }
        List<?> record = reply.get(reply.size() - 1) instanceof List<?> r ? r : null;
        return new Reply(
                "released",
                Long.parseLong(String.valueOf(reply.get(1))),
                Long.parseLong(String.valueOf(reply.get(2))),
                String.valueOf(reply.get(3)),
                String.valueOf(reply.get(4)),
                String.valueOf(reply.get(5)),
                pairs(reply, 6, record == null ? reply.size() : reply.size() - 1),
                record == null ? null : pairs(record, 0, record.size()),
                null);
    }

    /** The field/value items {@code from} (inclusive) to {@code to} (exclusive) of {@code items}, in order. */
    private static Map<String, String> pairs(List<?> items, int from, int to) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = from; i + 1 < to; i += 2) {
            m.put(String.valueOf(items.get(i)), String.valueOf(items.get(i + 1)));
        }
        return m;
    }

    /**
     * Reply of a force-release on one node.
     *
     * @param outcome   {@code released}, {@code free} (nothing held) or {@code changed} (another token or a newer fence)
     * @param oldFence  the removed holder's fence
     * @param newFence  the counter after the bump (the current counter when nothing was released)
     * @param historyId id of the record in the lock's history stream
     * @param auditId   id of the record in {@link KeySpace#AUDIT}
     * @param tokenSha1 SHA-1 of the removed holder's token
     * @param holder    the removed holder's info hash (its fields only)
     * @param auditRecord the record the script wrote into the lock's history when it did not write the audit
     *                    stream itself (Redis Cluster: {@link ClusterAuditCopy} appends it there), else null
     * @param auditProblem why the audit record could not be written after the release (Cluster's copy), or null
     */
    record Reply(
            String outcome,
            long oldFence,
            long newFence,
            String historyId,
            String auditId,
            String tokenSha1,
            Map<String, String> holder,
            Map<String, String> auditRecord,
            String auditProblem) {
        boolean released() {
            return "released".equals(outcome);
        }

        Reply withAudit(String id, String problem) {
            return new Reply(outcome, oldFence, newFence, historyId, id, tokenSha1, holder, auditRecord, problem);
        }
    }
}
