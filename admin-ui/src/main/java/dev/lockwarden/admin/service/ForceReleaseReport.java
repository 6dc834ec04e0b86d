package dev.lockwarden.admin.service;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.ForceReleaseResult.OnNode;
import dev.lockwarden.ForceReleaseResult.State;
import java.util.List;
import java.util.Locale;

/**
 * What the operator reads after a force-release: exactly what happened, node by node where there are several
 * (Redlock). A release on a minority of the nodes is said as such, never as "nothing was released".
 */
public final class ForceReleaseReport {
    private ForceReleaseReport() {}

    /**
     * One line for a force-release that removed a holder on at least one node.
     *
     * @param r the lock-core result ({@link ForceReleaseResult#releasedOn()} &gt; 0, or released on one node)
     * @return e.g. "Released pay:1: fence 7 → 8, audit id 17…-0" or, on Redlock, "Released pay:1 on 1 of 3 nodes
     *         only …"
     */
    public static String text(ForceReleaseResult r) {
        List<OnNode> nodes = r.nodes();
        boolean several = nodes.size() > 1;
        boolean everywhere = r.releasedOn() == nodes.size();
        StringBuilder s = new StringBuilder("Released ").append(r.name());
        if (several && !everywhere) {
            s.append(" on ")
                    .append(r.releasedOn())
                    .append(" of ")
                    .append(nodes.size())
                    .append(" nodes");
            if (!r.released()) {
                s.append(" only, a minority (")
                        .append(list(nodes, State.RELEASED))
                        .append("): it was no majority's lock, a leftover rather than a held lock");
            }
        }
        s.append(": fence ").append(r.oldFence()).append(" → ").append(r.newFence());
        s.append(several && !everywhere ? " (raised on every node)" : "");
        s.append(", audit id ").append(r.auditId());
        if (several && everywhere) {
            s.append(" — on all ").append(nodes.size()).append(" nodes");
        } else if (several) {
            s.append(!r.released() ? " (on the nodes that released it)" : "")
                    .append(". Other nodes: ")
                    .append(others(nodes));
        }
        nodes.stream()
                .filter(n -> n.state() == State.RELEASED && n.problem() != null)
                .forEach(n -> s.append(". On ").append(n.node()).append(": ").append(n.problem()));
        return s.toString();
    }

    /** What each node that did not release it said, e.g. "redis://a:1 free, redis://b:2 failed (…)"; "" if none. */
    static String others(List<OnNode> nodes) {
        StringBuilder s = new StringBuilder();
        for (OnNode n : nodes) {
            if (n.state() == State.RELEASED) {
                continue;
            }
            s.append(s.isEmpty() ? "" : ", ")
                    .append(n.node())
                    .append(' ')
                    .append(n.state().name().toLowerCase(Locale.ROOT));
            if (n.problem() != null) {
                s.append(" (").append(n.problem()).append(')');
            }
        }
        return s.toString();
    }

    private static String list(List<OnNode> nodes, State state) {
        return String.join(
                ", ",
                nodes.stream().filter(n -> n.state() == state).map(OnNode::node).toList());
    }
}
