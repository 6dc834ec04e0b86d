package dev.lockwarden.examples.jakarta;

import dev.lockwarden.fencing.JdbcFence;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * The payments table in the server's default datasource (Payara: an embedded H2). Connections join the caller's
 * JTA transaction. A charge is recorded through {@link JdbcFence}: the UPDATE only applies when no newer lock
 * holder wrote before.
 */
@ApplicationScoped
public class Ledger {
    private static final JdbcFence FENCE = new JdbcFence("payment", "id", "fence");

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource db;

    /** A row of the payments table. */
    public record Entry(String status, String confirmation) {
        boolean charged() {
            return "CHARGED".equals(status);
        }
    }

    /** Creates the table once (at deployment, see {@link Schema}). */
    void createTable() throws SQLException {
        try (Connection c = db.getConnection();
                var s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS payment (id VARCHAR(64) PRIMARY KEY, status VARCHAR(16) NOT NULL,"
                    + " confirmation VARCHAR(64), fence BIGINT)");
        }
    }

    /** A new, unpaid payment; false if it exists. */
    public boolean create(String id) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO payment (id, status) SELECT ?, 'NEW' FROM (VALUES 1)"
                                + " WHERE NOT EXISTS (SELECT 1 FROM payment WHERE id = ?)")) {
            ps.setString(1, id);
            ps.setString(2, id);
            return ps.executeUpdate() == 1;
        }
    }

    public Optional<Entry> find(String id) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT status, confirmation FROM payment WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Entry(rs.getString(1), rs.getString(2))) : Optional.empty();
            }
        }
    }

    /** Records the charge: fenced when {@code fence} is given (false: a newer holder wrote), plain otherwise. */
    public boolean markCharged(String id, String confirmation, OptionalLong fence) throws SQLException {
        try (Connection c = db.getConnection()) {
            if (fence.isPresent()) {
                return FENCE.update(
                        c, id, fence.getAsLong(), Map.of("status", "CHARGED", "confirmation", confirmation));
            }
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE payment SET status = 'CHARGED', confirmation = ? WHERE id = ?")) {
                ps.setString(1, confirmation);
                ps.setString(2, id);
                return ps.executeUpdate() == 1;
            }
        }
    }
}
