package dev.lockwarden.internal;

import dev.lockwarden.store.Lease;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.RedisNodeClient;
import dev.lockwarden.store.Sha1;
import java.util.Map;

/**
 * Says why a lock whose token Redis no longer has is gone. An operator's force-release leaves a
 * short-lived marker next to the lock (force-release.lua: the old token's SHA-1 and the operator);
 * when it names this very token the reason is "force-released by ...", otherwise the caller's
 * generic reason (expired, taken over). Only called on the rare lost path, after Redis just
 * answered; a node that does not answer is skipped.
 */
final class LossCause {
    private final RedisDeployment redis;

    LossCause(RedisDeployment redis) {
        this.redis = redis;
    }

    String reason(Lease lease, String generic) {
        String sha1 = Sha1.hex(lease.token());
        for (RedisNodeClient n : redis.nodes()) { // Redlock: the force-release ran on every node
            try {
                Map<String, String> marker = n.redis().hgetAll(n.keySpace().forced(lease.name()));
                if (sha1.equals(marker.get("token"))) {
                    return forced(marker.getOrDefault("operator", ""), marker.getOrDefault("fence", "?"));
                }
            } catch (RuntimeException unreachable) {
                // this node cannot tell; another may
            }
        }
        return generic;
    }

    /** The reason of a force-release by {@code operator} ("" = not named), after which the counter is {@code fence}. */
    static String forced(String operator, String fence) {
        return "force-released by " + (operator.isEmpty() ? "an operator" : "operator '" + operator + "'")
                + " (fence now " + fence + ")";
    }
}
