package dev.lockwarden.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The storage-side half of fencing: a row update that the database itself rejects unless it carries
 * a fencing token higher than the last one that wrote the row. A lock holder that was paused past
 * its TTL (GC, VM freeze) and lost the lock to a newer holder can no longer overwrite that holder's
 * data, even though it still believes it holds the lock.
 *
 * <pre>{@code
 * JdbcFence fence = new JdbcFence("account", "id", "fence");   // account(id ..., balance ..., fence BIGINT)
 * try (LockHandle lock = locks.acquire("account:" + id, opts)) {
 *     boolean written = fence.update(connection, id, lock.fencingToken(), Map.of("balance", newBalance));
 *     if (!written) { ... a newer holder wrote first: our view is stale, do not retry blindly ... }
 * }
 * }</pre>
 *
 * It runs one statement, {@code UPDATE t SET c1 = ?, ..., fence = ? WHERE id = ? AND (fence IS NULL OR fence < ?)},
 * whose check and write are atomic in any SQL database. Table and column names cannot be bound as
 * parameters, so they are validated as plain identifiers; every value is bound. The row must exist
 * (insert it first, with a NULL or 0 fence). Plain JDBC: no dependency, no transaction handling of its own.
 */
public final class JdbcFence {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private final String table;
    private final String idColumn;
    private final String fenceColumn;

    /**
     * @param table       table to write
     * @param idColumn    its key column
     * @param fenceColumn a numeric column (e.g. BIGINT) holding the token of the last accepted write
     */
    public JdbcFence(String table, String idColumn, String fenceColumn) {
        this.table = identifier(table, "table");
        this.idColumn = identifier(idColumn, "id column");
        this.fenceColumn = identifier(fenceColumn, "fence column");
    }

    /**
     * Writes {@code values} to row {@code id} if {@code fence} is higher than the row's fence, and
     * records {@code fence} there.
     *
     * @param connection the connection to write with (in the caller's transaction)
     * @param id         the row's id
     * @param fence      the writer's fencing token
     * @param values     column → value to write
     * @return true if the write was accepted; false if a write with an equal or higher token came
     *         first (or the row does not exist)
     * @throws SQLException as the driver reports it
     */
    public boolean update(Connection connection, Object id, long fence, Map<String, ?> values) throws SQLException {
        Map<String, ?> columns = new LinkedHashMap<>(values);
        StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ");
        List<Object> params = new ArrayList<>();
        for (Map.Entry<String, ?> e : columns.entrySet()) {
            String column = identifier(e.getKey(), "column");
            if (column.equalsIgnoreCase(fenceColumn) || column.equalsIgnoreCase(idColumn)) {
                throw new IllegalArgumentException(
                        "column '" + column + "' of " + table + " is managed by JdbcFence: leave it out of the values");
            }
            sql.append(column).append(" = ?, ");
            params.add(e.getValue());
        }
        sql.append(fenceColumn)
                .append(" = ? WHERE ")
                .append(idColumn)
                .append(" = ? AND (")
                .append(fenceColumn)
                .append(" IS NULL OR ")
                .append(fenceColumn)
                .append(" < ?)");
        params.add(fence);
        params.add(id);
        params.add(fence);
        try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            return ps.executeUpdate() == 1;
        }
    }

    private static String identifier(String name, String what) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name '" + name + "' is not a plain SQL identifier"
                    + " (letters, digits, underscore; not starting with a digit)");
        }
        return name;
    }
}
