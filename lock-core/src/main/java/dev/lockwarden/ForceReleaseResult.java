package dev.lockwarden;

import java.util.List;

/**
 * Outcome of {@link LockInspector#forceRelease}.
 *
 * @param name       the lock
 * @param released   whether a holder was removed (false if the lock was already free); over Redlock, whether a
 *                   majority of the nodes removed it ({@link #releasedOn()} says on how many it was removed)
 * @param oldFence   fencing token of the removed holder (0 if none)
 * @param newFence   the fence counter after the bump: every write fenced with {@code oldFence} is now stale
 * @param auditId    id of the audit record in {@code lockwarden:audit} (null if nothing was released)
 * @param nodes      what happened on each node, in the order of the deployment's nodes (one entry for a single
 *                   node or a cluster: the master owning the lock); empty when not known
 */
public record ForceReleaseResult(
        String name, boolean released, long oldFence, long newFence, String auditId, List<OnNode> nodes) {

    /**
     * A result without per-node outcomes.
     *
     * @param name     the lock
     * @param released whether a holder was removed
     * @param oldFence fencing token of the removed holder (0 if none)
     * @param newFence the fence counter after the bump
     * @param auditId  id of the audit record (null if nothing was released)
     */
    public ForceReleaseResult(String name, boolean released, long oldFence, long newFence, String auditId) {
        this(name, released, oldFence, newFence, auditId, List.of());
    }

    /**
     * A result with each node's part.
     *
     * @param name     the lock
     * @param released whether a holder was removed (over Redlock: on a majority)
     * @param oldFence fencing token of the removed holder (0 if none)
     * @param newFence the fence counter after the bump
     * @param auditId  id of the audit record (null if nothing was released)
     * @param nodes    each node's part, in node order (copied; null = none known)
     */
    public ForceReleaseResult {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /**
     * On how many nodes a holder was removed.
     *
     * @return the nodes in {@link #nodes()} that released it (a Redlock minority release: {@code > 0}, not
     *         {@link #released()})
     */
    public int releasedOn() {
        return (int) nodes.stream().filter(n -> n.state() == State.RELEASED).count();
    }

    /** What a force-release found and did on one node. */
    public enum State {
        /** the holder was removed here: lock deleted, fence raised, audit record and history written */
        RELEASED,
        /** nothing was held here; nothing changed */
        FREE,
        /** another acquisition holds it here (not the one the operator saw); nothing changed */
        CHANGED,
        /** the node gave no usable answer ({@link OnNode#problem()} says why); as far as it is known nothing changed */
        FAILED
    }

    /**
     * One node's part of a force-release.
     *
     * @param node    the node's address (on a cluster: the master that owns the lock), never its password
     * @param state   what happened there
     * @param auditId the audit record's id on that node when released (null if none was written)
     * @param problem what went wrong there, or null: the node's error when {@link State#FAILED}, or a failed audit
     *                copy of a {@link State#RELEASED} lock on Redis Cluster
     */
    public record OnNode(String node, State state, String auditId, String problem) {}
}
