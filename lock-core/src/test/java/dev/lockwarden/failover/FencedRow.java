package dev.lockwarden.failover;

import dev.lockwarden.fencing.JdbcFence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.h2.tools.Server;

/**
 * One counter row behind {@link JdbcFence} in an in-memory H2 database served over TCP on
 * 127.0.0.1, so clients in other JVMs write the same row. A {@link FenceAudit} trigger records every
 * accepted write; {@link #audit()} and {@link #fenceOrder} judge them.
 */
final class FencedRow implements AutoCloseable {

    static final JdbcFence FENCE = new JdbcFence("counter", "id", "fence");
    static final int ID = 1;

    /** Audit rows that are claims: the fence went up, the value stayed. */
    private static final String CLAIM = "(new_val = old_val AND (old_fence IS NULL OR new_fence > old_fence))";

    private static final String WRITE = "NOT " + CLAIM;

    /** Audit rows that changed the fence: claims, and stale or unclaimed writes. */
    private static final String NEW_FENCE = "(old_fence IS NULL OR new_fence <> old_fence)";

    static {
        // H2 reads this once; the lock-core surefire configuration sets it too, before any H2 class loads
        System.setProperty("h2.bindAddress", "127.0.0.1");
    }

    private final Server server;
    private final Connection keeper;
    private final String url;

    private FencedRow(Server server, Connection keeper, String url) {
        this.server = server;
        this.keeper = keeper;
        this.url = url;
    }

    static FencedRow start() throws SQLException {
        String db = "fenced-" + System.nanoTime();
        Connection keeper = DriverManager.getConnection("jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1");
        try (Statement s = keeper.createStatement()) {
            s.execute(
                    "CREATE TABLE counter (id INT PRIMARY KEY, val BIGINT NOT NULL, fence BIGINT, writer VARCHAR(40))");
            s.execute("INSERT INTO counter VALUES (" + ID + ", 0, NULL, NULL)");
            s.execute("CREATE TABLE audit (seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, old_val BIGINT,"
                    + " new_val BIGINT, old_fence BIGINT, new_fence BIGINT, writer VARCHAR(40), at_ms BIGINT)");
            s.execute("CREATE TABLE grants (client VARCHAR(40), fence BIGINT, started_ms BIGINT, acquired_ms BIGINT)");
            s.execute("CREATE TRIGGER counter_audit AFTER UPDATE ON counter FOR EACH ROW CALL '"
                    + FenceAudit.class.getName() + "'");
        }
        Server server = Server.createTcpServer("-tcpPort", "0").start();
        return new FencedRow(
                server, keeper, "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:" + db + ";LOCK_TIMEOUT=10000");
    }

    /** {@return the JDBC URL every client uses (TCP on loopback)} */
    String url() {
        return url;
    }

    /** Reads the row's value in the caller's transaction. */
    static long read(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT val FROM counter WHERE id = " + ID)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Records a grant (for {@link #fenceOrder}) in the caller's transaction. */
    static void grant(Connection c, String client, long fence, long startedMs, long acquiredMs) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO grants VALUES (?, ?, ?, ?)")) {
            ps.setString(1, client);
            ps.setLong(2, fence);
            ps.setLong(3, startedMs);
            ps.setLong(4, acquiredMs);
            ps.executeUpdate();
        }
    }

    /**
     * What the audit says about every update the database applied, in order. A row whose value is
     * unchanged and whose fence went up is a claim; every other row is a write, which must add one to
     * the value and carry the fence its writer claimed (the row's fence, unchanged).
     *
     * @param writes      accepted writes (claims aside)
     * @param stale       updates whose fence went down, writes not under the row's claimed fence, and
     *                    claims that did not raise the fence
     * @param lost        writes that did not add one to the value they replaced (a lost update)
     * @param breaks      updates whose before-image is not the previous update's after-image
     * @param finalValue  the row's value now
     * @param writers     distinct writers seen
     * @param firstProblem the first bad update, or null
     */
    record Report(
            long writes, long stale, long lost, long breaks, long finalValue, long writers, String firstProblem) {}

    Report audit() throws SQLException {
        long writes = 0, stale = 0, lost = 0, breaks = 0;
        String first = null;
        Long prevVal = null, prevFence = null;
        try (Statement s = keeper.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT seq, old_val, new_val, old_fence, new_fence, writer FROM audit ORDER BY seq")) {
            while (rs.next()) {
                long oldVal = rs.getLong(2), newVal = rs.getLong(3), newFence = rs.getLong(5);
                Long oldFence = rs.getObject(4) == null ? null : rs.getLong(4);
                boolean raised = oldFence == null || newFence > oldFence;
                String problem = "";
                if (newVal == oldVal && raised) {
                    // a claim
                } else {
                    writes++;
                    if (oldFence == null || newFence != oldFence) {
                        stale++;
                        problem += raised ? " write without a claim" : " stale fence";
                    }
                    if (newVal != oldVal + 1) {
                        lost++;
                        problem += " lost update";
                    }
                }
                if (prevVal != null && (oldVal != prevVal || !prevFence.equals(oldFence))) {
                    breaks++;
                    problem += " broken chain";
                }
                if (!problem.isEmpty() && first == null) {
                    first = problem.strip() + " at seq " + rs.getLong(1) + " by " + rs.getString(6) + ": val " + oldVal
                            + " -> " + newVal + ", fence " + oldFence + " -> " + newFence;
                }
                prevVal = newVal;
                prevFence = newFence;
            }
        }
        return new Report(writes, stale, lost, breaks, value(), writers(), first);
    }

    /** A failover: started (master killed, takeover sent) and done (promotion seen) at these wall-clock times. */
    record Failover(String what, long startMs, long doneMs) {}

    /**
     * For each failover, every fence granted (and every fence put on the row) after it is above
     * every fence granted (put on the row) before it; also that clients made progress after it.
     *
     * @return the violations, empty if none
     */
    List<String> fenceOrder(List<Failover> failovers) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (int k = 0; k < failovers.size(); k++) {
            Failover f = failovers.get(k);
            long grantedBefore = max("SELECT MAX(fence) FROM grants WHERE acquired_ms < ?", f.startMs());
            long grantedAfter = min("SELECT MIN(fence) FROM grants WHERE started_ms > ?", f.doneMs());
            long writtenBefore =
                    max("SELECT MAX(new_fence) FROM audit WHERE " + NEW_FENCE + " AND at_ms < ?", f.startMs());
            long writtenAfter =
                    min("SELECT MIN(new_fence) FROM audit WHERE " + NEW_FENCE + " AND at_ms > ?", f.doneMs());
            long nextStart = k + 1 < failovers.size() ? failovers.get(k + 1).startMs() : Long.MAX_VALUE;
            long progress = count("SELECT COUNT(*) FROM audit WHERE " + WRITE + " AND at_ms > " + f.doneMs()
                    + " AND at_ms < " + nextStart);
            if (grantedAfter <= grantedBefore || writtenAfter <= writtenBefore || progress == 0) {
                problems.add(f + ": granted before " + grantedBefore + " after " + grantedAfter + "; written before "
                        + writtenBefore + " after " + writtenAfter + "; writes until the next failover " + progress);
            }
        }
        return problems;
    }

    /** {@return accepted writes after {@code ms}} */
    long writesAfter(long ms) throws SQLException {
        return count("SELECT COUNT(*) FROM audit WHERE " + WRITE + " AND at_ms > " + ms);
    }

    /** {@return distinct writers with an accepted write} */
    long writers() throws SQLException {
        return count("SELECT COUNT(DISTINCT writer) FROM audit WHERE " + WRITE);
    }

    long value() throws SQLException {
        return count("SELECT val FROM counter WHERE id = " + ID);
    }

    private long count(String sql) throws SQLException {
        try (Statement s = keeper.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long max(String sql, long ms) throws SQLException {
        Long v = one(sql, ms);
        return v == null ? Long.MIN_VALUE : v;
    }

    private long min(String sql, long ms) throws SQLException {
        Long v = one(sql, ms);
        return v == null ? Long.MAX_VALUE : v;
    }

    private Long one(String sql, long ms) throws SQLException {
        try (PreparedStatement ps = keeper.prepareStatement(sql)) {
            ps.setLong(1, ms);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getObject(1) == null ? null : rs.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        server.stop();
        try (Statement s = keeper.createStatement()) {
            s.execute("SHUTDOWN");
        }
        keeper.close();
    }
}
