package dev.lockwarden.examples.nolock;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * When you do not need a distributed lock: the database already decides "who does it once". The
 * request's idempotency key is claimed with {@code INSERT ... ON CONFLICT DO NOTHING} (PostgreSQL;
 * a plain INSERT against a primary key or unique constraint works the same way, failing with
 * SQLState 23505): exactly one concurrent caller gets 1 row and does the work, every other gets 0
 * and returns the stored result. No Redis, no TTL, nothing to lose.
 */
public final class ClaimOnce {
    private final String url;

    public ClaimOnce(String jdbcUrl) throws SQLException {
        this.url = jdbcUrl;
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE IF NOT EXISTS request_claim (idempotency_key VARCHAR(64) PRIMARY KEY, claimed_by VARCHAR(64))");
        }
    }

    /** True for exactly one caller per key: the one that must do the work. */
    public boolean claimWithOnConflict(String key, String caller) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO request_claim (idempotency_key, claimed_by) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, key);
            ps.setString(2, caller);
            return ps.executeUpdate() == 1;
        }
    }

    /** The same with a plain INSERT: the unique constraint rejects every caller but the first. */
    public boolean claimWithUniqueConstraint(String key, String caller) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO request_claim (idempotency_key, claimed_by) VALUES (?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, caller);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return false; // unique violation: someone else claimed it
            }
            throw e;
        }
    }
}
