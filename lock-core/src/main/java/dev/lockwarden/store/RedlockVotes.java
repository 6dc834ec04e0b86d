package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;
import java.util.ArrayList;
import java.util.List;

/** How {@link RedlockStore} folds the nodes' replies of one call: votes, failures, and the error when no quorum is possible. */
final class RedlockVotes {
    private RedlockVotes() {}

    /** Nodes that granted the lock at fence {@code m} with their counter at {@code m} (phase 1 in step). */
    static int atMaximum(List<NodeReply<AcquireResult>> replies, long m) {
        int n = 0;
        for (NodeReply<AcquireResult> r : replies) {
            if (r.ok()
                    && r.value().acquired()
                    && r.value().fence() == m
                    && !r.value().counterBehind()) {
                n++;
            }
        }
        return n;
    }

    /** Nodes that answered yes. */
    static int count(List<NodeReply<Boolean>> replies) {
        int yes = 0;
        for (NodeReply<Boolean> r : replies) {
            if (r.ok() && r.value()) {
                yes++;
            }
        }
        return yes;
    }

    /** Nodes that failed. */
    static int errors(List<? extends NodeReply<?>> replies) {
        int n = 0;
        for (NodeReply<?> r : replies) {
            if (r.error() != null) {
                n++;
            }
        }
        return n;
    }

    /** The error when too many nodes failed for {@code quorum} to agree; a {@link SlowQuorumException} if some were only slow. */
    static LockStoreException quorumImpossible(String what, List<? extends NodeReply<?>> replies, int quorum) {
        List<String> reasons = new ArrayList<>();
        for (NodeReply<?> r : replies) {
            if (r.error() != null) {
                reasons.add(r.error().getMessage());
            }
        }
        boolean slow = replies.stream().anyMatch(r -> r.error() instanceof NodeTimeoutException);
        String message = "Redlock cannot " + what + ": " + reasons.size() + " of "
                + replies.size() + " nodes failed and " + quorum + " must agree. Bring nodes back up (or check the"
                + " URIs); failures: " + String.join("; ", reasons);
        LockStoreException e = slow ? new SlowQuorumException(message) : new LockStoreException(message);
        for (NodeReply<?> r : replies) {
            if (r.error() != null) {
                e.addSuppressed(r.error());
            }
        }
        return e;
    }

    /** Quorum missed because some nodes did not answer in time (they may be slow rather than down). */
    static final class SlowQuorumException extends StoreTimeoutException {
        SlowQuorumException(String message) {
            super(message);
        }
    }

    /** The median, or -1 for none. */
    static long median(List<Long> values) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** Per lease of a batch: true where at least {@code quorum} nodes answered true. */
    static boolean[] perLease(List<NodeReply<boolean[]>> replies, int leases, int quorum) {
        boolean[] ours = new boolean[leases];
        for (int i = 0; i < leases; i++) {
            int yes = 0;
            for (NodeReply<boolean[]> r : replies) {
                if (r.ok() && r.value()[i]) {
                    yes++;
                }
            }
            ours[i] = yes >= quorum;
        }
        return ours;
    }
}
