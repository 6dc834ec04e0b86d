package dev.lockwarden.failover;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.h2.api.Trigger;

/**
 * An H2 row trigger on the fenced row: every update that the database accepts, whoever wrote it and
 * however (through {@code JdbcFence} or a plain {@code UPDATE}), is copied into {@code audit} with the
 * row's value and fence before and after, in the writer's own transaction. {@link FencedRow#audit()}
 * reads it to judge the writes independently of {@code JdbcFence}'s condition.
 */
public final class FenceAudit implements Trigger {

    /** Column order of the {@code counter} table: id, val, fence, writer. */
    private static final int VAL = 1;

    private static final int FENCE = 2;
    private static final int WRITER = 3;

    /** Instantiated by H2. */
    public FenceAudit() {}

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO audit (old_val, new_val, old_fence, new_fence,"
                + " writer, at_ms) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setObject(1, oldRow[VAL]);
            ps.setObject(2, newRow[VAL]);
            ps.setObject(3, oldRow[FENCE]);
            ps.setObject(4, newRow[FENCE]);
            ps.setObject(5, newRow[WRITER]);
            ps.setLong(6, System.currentTimeMillis());
            ps.executeUpdate();
        }
    }
}
