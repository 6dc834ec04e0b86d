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
 * The storage-side half of fencing: a row update that the database itself rejects when it carries a
 * fencing token lower than the last one recorded on the row. A lock holder that was paused past its
 * TTL (GC, VM freeze) or lost the lock in a failover, and still believes it holds the lock, can no
 * longer overwrite the data of the newer holder once that holder's token is on the row.
 *
 * <p>A blind write (the new values do not depend on what the row held) needs one call:
 *
 * <pre>{@code
 * JdbcFence fence = new JdbcFence("account", "id", "fence");   // account(id ..., balance ..., fence BIGINT)
 * try (LockHandle lock = locks.acquire("account:" + id, opts)) {
 *     boolean written = fence.update(connection, id, lock.fencingToken(), Map.of("status", "CLOSED"));
 *     if (!written) { ... a newer holder came first: our view is stale, do not retry blindly ... }
 * }
 * }</pre>
 *
 * <p>A read-modify-write (a balance, a counter) must put its token on the row <em>before</em> it reads
 * it, with {@link #claim}: otherwise an older holder can write between the read and the write, and the
 * newer holder's write, based on the value it read, silently undoes it (a lost update no token order
 * can catch, since each write carried a token higher than the row's at its time).
 *
 * <pre>{@code
 * long token = lock.fencingToken();
 * if (!fence.claim(connection, id, token)) { ... a newer holder came first ... }
 * long balance = readBalance(connection, id);
 * if (!fence.update(connection, id, token, Map.of("balance", balance - amount))) { ... as above ... }
 * }</pre>
 *
 * Both run one statement, {@code UPDATE t SET c1 = ?, ..., fence = ? WHERE id = ? AND (fence IS NULL OR fence <= ?)},
 * whose check and write are atomic in any SQL database. An equal token is the same holder (every grant gets
 * a new, higher token), so a holder may claim and then write, or write twice. Table and column names cannot be
 * bound as parameters, so they are validated as plain identifiers; every value is bound. The row must exist
 * (insert it first, with a NULL or 0 fence). Plain JDBC: no dependency, no transaction handling of its own —
 * the claim protects without a transaction around the read and the write, and inside one as well.
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
     * Records {@code fence} on row {@code id} unless the row carries a higher token, so that from now on
     * every write with a lower token is refused. Call it before reading the row in a read-modify-write,
     * then write with {@link #update} and the same token.
     *
     * @param connection the connection to write with (in the caller's transaction, if any)
     * @param id         the row's id
     * @param fence      the holder's fencing token
     * @return true if the row now carries {@code fence}; false if a higher token came first (or the row
     *         does not exist)
     * @throws SQLException as the driver reports it
     */
    public boolean claim(Connection connection, Object id, long fence) throws SQLException {
        return update(connection, id, fence, Map.of());
    }

    /**
     * Writes {@code values} to row {@code id} unless the row carries a higher token than {@code fence},
     * and records {@code fence} there.
     *
     * @param connection the connection to write with (in the caller's transaction, if any)
     * @param id         the row's id
     * @param fence      the writer's fencing token
     * @param values     column → value to write (may be empty: then it is a {@link #claim})
     * @return true if the write was accepted; false if a write or claim with a higher token came first
     *         (or the row does not exist)
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
                .append(" <= ?)");
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
