package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The types force-release.lua needs its keys to have (or be absent), read before the script runs where one
 * script cannot see them all: over Redlock on every node first, so that a foreign value on one node stops the
 * force-release on every node before any node wrote anything; on Redis Cluster for the audit stream, which is
 * in another hash slot than the lock. The script checks its own keys again, atomically (these reads only make
 * the nodes agree in the common case: a key written between the two is reported by that node's script).
 */
final class ForceReleaseKeys {
    private ForceReleaseKeys() {}

    /**
     * Where one script cannot see every key before writing (Redlock, Cluster), reads their types on every node: a
     * key of another type on any node stops the force-release before any node wrote anything. A node that does not
     * answer here is left to the script (and to the quorum rule).
     *
     * @throws WrongKeyTypeException naming the key, its type and the node
     */
    static void checkEveryNode(RedisDeployment redis, String name, long timeoutMillis) {
        boolean cluster = redis.first().singleSlotScriptsOnly();
        if (redis.size() == 1 && !cluster) {
            return; // the script checks every key itself, atomically
        }
        List<String> failures = new ArrayList<>();
        for (NodeReply<Boolean> r : redis.onEveryNode(
                "check the keys of '" + name + "'", name, n -> check(n, name, cluster), timeoutMillis)) {
            if (r.error() instanceof WrongKeyTypeException e) {
                throw e;
            }
            if (!r.ok()) {
                failures.add(
                        r.error() == null
                                ? "node " + r.node() + " gave no answer"
                                : r.error().getMessage());
            }
        }
        redis.requireQuorum("force-release '" + name + "'", failures);
    }

    /** Key → type expected, in the script's order; with the audit stream. */
    static Map<String, String> expected(KeySpace keys, String name) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(keys.lock(name), "string");
        m.put(keys.info(name), "hash");
        m.put(keys.fence(name), "string");
        m.put(keys.history(name), "stream");
        m.put(keys.forced(name), "hash");
        m.put(KeySpace.AUDIT, "stream");
        return m;
    }

    /**
     * Reads the type of every key of {@link #expected} on {@code node} ({@code auditOnly}: of the audit stream).
     *
     * @throws WrongKeyTypeException naming the first key of another type (or a fence that is not an integer)
     */
    static boolean check(RedisNodeClient node, String name, boolean auditOnly) {
        String at = node.masterOf(node.keySpace().lock(name));
        for (Map.Entry<String, String> e : expected(node.keySpace(), name).entrySet()) {
            String key = e.getKey();
            if (auditOnly && !key.equals(KeySpace.AUDIT)) {
                continue;
            }
            String type =
                    node.call("read the type of " + key, () -> node.redis().type(key));
            String where = key.equals(KeySpace.AUDIT) ? node.masterOf(key) : at;
            if (!type.equals("none") && !type.equals(e.getValue())) {
                throw wrongType(where, name, key, type, e.getValue());
            }
            if (key.equals(node.keySpace().fence(name)) && type.equals("string")) {
                String v = node.call("read " + key, () -> node.redis().get(key));
                if (v != null && !v.matches("-?\\d{1,19}")) {
                    throw wrongType(where, name, key, "string", "integer");
                }
            }
        }
        return true;
    }

    static WrongKeyTypeException wrongType(String node, String name, String key, String type, String expected) {
        return new WrongKeyTypeException(
                node,
                key,
                "cannot force-release '" + name + "' on " + node + ": " + key + " is a " + type + ", not a"
                        + (expected.matches("[aeiou].*") ? "n " : " ") + expected
                        + ": another program wrote it; DEL it or rename it (RENAME keeps what it holds), then"
                        + " force-release again. Nothing was changed: the lock is as it was");
    }
}
