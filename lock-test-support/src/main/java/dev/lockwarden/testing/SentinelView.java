package dev.lockwarden.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What one sentinel process reports about {@value RedisSentinelGroup#MASTER_NAME}. */
final class SentinelView {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final RedisNode sentinel;

    private SentinelView(RedisNode sentinel) {
        this.sentinel = sentinel;
    }

    static SentinelView of(RedisNode sentinel) {
        return new SentinelView(sentinel);
    }

    /** The master port this sentinel names ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}). */
    static int masterPort(RedisNode sentinel) {
        String reply = sentinel.command(TIMEOUT, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", RedisSentinelGroup.MASTER_NAME);
        if (reply == null) {
            throw new IllegalStateException(sentinel + " does not monitor " + RedisSentinelGroup.MASTER_NAME);
        }
        return Integer.parseInt(reply.split("\n")[1]);
    }

    /**
     * Why this sentinel is not ready for a failover of a healthy master on {@code masterPort} with
     * {@code replicas} healthy replicas and {@code otherSentinels} peers, or null if it is.
     */
    String problem(int masterPort, int replicas, int otherSentinels) {
        int named = masterPort(sentinel);
        if (named != masterPort) {
            return "names master " + named + ", not " + masterPort;
        }
        List<String> master = fields(sentinel.command(TIMEOUT, "SENTINEL", "MASTER", RedisSentinelGroup.MASTER_NAME));
        String flags = value(master, "flags");
        if (!"master".equals(flags)) {
            return "sees the master with flags " + flags;
        }
        String peers = value(master, "num-other-sentinels");
        if (!Integer.toString(otherSentinels).equals(peers)) {
            return "knows " + peers + " other sentinels, not " + otherSentinels;
        }
        List<String> replicaFields =
                fields(sentinel.command(TIMEOUT, "SENTINEL", "REPLICAS", RedisSentinelGroup.MASTER_NAME));
        long healthy =
                values(replicaFields, "flags").stream().filter("slave"::equals).count();
        if (healthy != replicas) {
            return "sees " + healthy + " healthy replicas (flags " + values(replicaFields, "flags") + "), not "
                    + replicas;
        }
        try {
            sentinel.command(TIMEOUT, "SENTINEL", "CKQUORUM", RedisSentinelGroup.MASTER_NAME);
        } catch (RedisReplyException e) {
            return "no quorum: " + e.getMessage();
        }
        return null;
    }

    /** A flattened reply of field/value pairs (possibly several maps in a row) as a list. */
    private static List<String> fields(String reply) {
        return reply == null ? List.of() : List.of(reply.split("\n", -1));
    }

    private static String value(List<String> pairs, String field) {
        List<String> all = values(pairs, field);
        return all.isEmpty() ? null : all.get(0);
    }

    private static List<String> values(List<String> pairs, String field) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            if (pairs.get(i).equals(field)) {
                found.add(pairs.get(i + 1));
            }
        }
        return found;
    }
}
