package dev.lockwarden.testing;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Bounded waits on the replication state of {@link RedisNode}s, read from {@code INFO replication}:
 * a node's role, a replica's link to its master and whether it has caught up.
 */
public final class Replication {

    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);
    private static final long POLL_MILLIS = 20;

    private Replication() {}

    /**
     * The fields of {@code INFO replication} (e.g. {@code role}, {@code master_port}, {@code master_link_status}).
     *
     * @param node a running node
     * @return field name to value
     */
    public static Map<String, String> info(RedisNode node) {
        Map<String, String> fields = new HashMap<>();
        for (String line : node.command(POLL_TIMEOUT, "INFO", "replication").split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /**
     * The node's role.
     *
     * @param node a running node
     * @return {@code master} or {@code slave}
     */
    public static String role(RedisNode node) {
        return info(node).get("role");
    }

    /**
     * Whether the node answers and reports {@code role:master}.
     *
     * @param node any node, running or not
     * @return true if it answers as a master
     */
    public static boolean isMaster(RedisNode node) {
        try {
            return node.isRunning() && !node.isPaused() && "master".equals(role(node));
        } catch (UncheckedIOException | RedisReplyException e) {
            return false;
        }
    }

    /**
     * Waits until {@code replica} replicates from {@code masterPort} with its link up.
     *
     * @param replica    the replica
     * @param masterPort the port it should replicate from
     * @param timeout    how long to wait
     */
    public static void awaitLinkUp(RedisNode replica, int masterPort, Duration timeout) {
        await(timeout, () -> {
            Map<String, String> info = info(replica);
            if (!"slave".equals(info.get("role"))
                    || !Integer.toString(masterPort).equals(info.get("master_port"))
                    || !"up".equals(info.get("master_link_status"))) {
                return replica + " is not a replica of port " + masterPort + " with its link up: " + info;
            }
            return null;
        });
    }

    /**
     * Waits until {@code replica} has processed everything {@code master} has written so far (its
     * replication offset reached the master's offset as read at the call).
     *
     * @param master  the master
     * @param replica one of its replicas
     * @param timeout how long to wait
     */
    public static void awaitCaughtUp(RedisNode master, RedisNode replica, Duration timeout) {
        long target = Long.parseLong(info(master).get("master_repl_offset"));
        await(timeout, () -> {
            String offset = info(replica).get("slave_repl_offset");
            return offset != null && Long.parseLong(offset) >= target
                    ? null
                    : replica + " is at replication offset " + offset + ", master " + master.port() + " at " + target;
        });
    }

    /**
     * Polls {@code problem} (null means done) every 20 ms until it returns null.
     *
     * @throws IllegalStateException with the last problem if the timeout passes first
     */
    static void await(Duration timeout, Supplier<String> problem) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last;
        do {
            try {
                last = problem.get();
            } catch (UncheckedIOException | RedisReplyException e) {
                last = e.getMessage();
            }
            if (last == null) {
                return;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting: " + last, e);
            }
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException("not within " + timeout.toMillis() + " ms: " + last);
    }
}
