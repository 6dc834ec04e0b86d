package dev.lockwarden.agent.config;

import dev.lockwarden.config.RedisUri;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One topology per file ({@code redis}, {@code redlock}, {@code cluster} or {@code sentinel}), and replica
 * acknowledgement ({@code replica-acks}, a rule's {@code replicaAcks=}) only where lock-core waits for replicas: a
 * single node, Sentinel or Cluster (not Redlock). Checked at start-up, every problem naming its line. Loops, no lambdas: runs in premain.
 */
final class TopologyCheck {
    /** The Redis timeout of the agent's lock client (lock-core's default; the agent sets none). */
    static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

    private static final List<String> MULTI = List.of("redlock", "cluster", "sentinel");

    private TopologyCheck() {}

    static void check(
            String file,
            Map<String, String> settings,
            Map<String, Integer> lines,
            List<LockRule> rules,
            List<String> problems) {
        List<String> multi = new ArrayList<>();
        for (String t : MULTI) {
            if (settings.containsKey("lockwarden." + t)) {
                multi.add(t);
            }
        }
        if (multi.size() > 1) {
            int a = lines.get("lockwarden." + multi.get(0));
            int b = lines.get("lockwarden." + multi.get(1));
            String first = a < b ? multi.get(0) : multi.get(1);
            String later = a < b ? multi.get(1) : multi.get(0);
            problems.add(file + ":" + Math.max(a, b) + ": both " + first + " and " + later
                    + " are set — choose one topology (redis, redlock, cluster or sentinel)");
            return;
        }
        if (multi.size() == 1 && settings.containsKey("lockwarden.redis")) {
            problems.add(file + ":" + lines.get("lockwarden.redis") + ": redis is set together with " + multi.get(0)
                    + " — keep only one topology");
            return;
        }
        String refusing = multi.size() == 1 && multi.get(0).equals("redlock") ? "redlock" : null;
        String fix = " — remove it, or use redis, sentinel or cluster (masters with replicas)";
        String acks = settings.get("lockwarden.replica-acks");
        if (acks != null) {
            ReplicaAckSpec spec = ReplicaAckSpec.parse(acks, "replica-acks"); // the form was checked on its line
            String where = file + ":" + lines.get("lockwarden.replica-acks") + ": replica-acks = " + spec;
            if (spec.replicas() > 0 && refusing != null) {
                problems.add(where + " asks for replica acknowledgement, which Lockwarden does not use with " + refusing
                        + fix);
            } else if (spec.replicas() > 0 && spec.timeout().compareTo(REDIS_TIMEOUT) >= 0) {
                problems.add(where + ": the timeout is not shorter than the agent's Redis timeout ("
                        + REDIS_TIMEOUT.toMillis() + " ms) — shorten it, e.g. replica-acks = " + spec.replicas()
                        + "/500ms");
            } else if (spec.replicas() > 0 && settings.containsKey("lockwarden.ttl")) {
                Duration ttl = dev.lockwarden.config.Durations.parse(settings.get("lockwarden.ttl"), "ttl");
                if (spec.timeout().compareTo(ttl) >= 0) {
                    problems.add(where + ": the timeout is not shorter than ttl = " + settings.get("lockwarden.ttl")
                            + " (line " + lines.get("lockwarden.ttl") + ") — shorten the timeout");
                }
            }
        }
        if (refusing != null) {
            for (LockRule r : rules) {
                if (r.replicaAcks().isPresent() && r.replicaAcks().get().replicas() > 0) {
                    problems.add(r.where() + ": replicaAcks=" + r.replicaAcks().get()
                            + " asks for replica acknowledgement, which Lockwarden does not use with " + refusing
                            + fix);
                }
            }
        }
    }

    /**
     * Checks {@code sentinel = mymaster@redis://s1:26379,redis://s2:26379}: a master name, {@code @}, URIs.
     *
     * @throws IllegalArgumentException the form is wrong (the value is never shown: it may hold a password)
     */
    static void sentinel(String value) {
        int at = value.indexOf('@');
        String name = at < 0 ? "" : value.substring(0, at).strip();
        String uris = at < 0 ? "" : value.substring(at + 1).strip();
        if (name.isEmpty() || name.contains("://") || name.contains(",") || uris.isEmpty()) {
            throw new IllegalArgumentException("sentinel must be the master's name, @, the sentinels' URIs");
        }
        for (String u : uris.split(",")) {
            RedisUri.parse(u.strip());
        }
    }
}
