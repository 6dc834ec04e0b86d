package dev.lockwarden.store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fence a Redlock lock was handed out with, read back from its nodes. Phase 2 writes the token
 * into a majority's holder info; the other nodes may still show their own phase-1 value, which with
 * the clock floor can be higher or lower than the token (a node answering later read a later clock).
 * So the token is the value most nodes agree on, not the highest; with no agreement (one node, or
 * a lock still settling) the highest is shown.
 */
public final class AgreedFence {
    private AgreedFence() {}

    public static long of(List<Long> fences) {
        Map<Long, Integer> votes = new HashMap<>();
        long best = 0;
        int bestVotes = 0;
        for (long f : fences) {
            int v = votes.merge(f, 1, Integer::sum);
            if (v > bestVotes || (v == bestVotes && f > best)) {
                best = f;
                bestVotes = v;
            }
        }
        return best;
    }
}
